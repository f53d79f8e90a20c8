import type { DictDataItem, DictTypeItem } from '@clearplay/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveApi } from '../../../test/fake-api.ts';
import { renderInApp } from '../../../test/render.tsx';
import { DictDataFormModal } from './DictDataFormModal.tsx';

/** The English remark beside the Chinese one (decision 0097): a price's note, a link's description. */
const priceType: DictTypeItem = {
  id: 9,
  code: 'public_price',
  name: '公开价格',
  nameEn: 'Public prices',
  status: 1,
  remark: '',
  createdTime: '2026-01-02T03:04:05.000Z',
  dataCount: 1,
};

const cheating: DictDataItem = {
  id: 41,
  typeCode: 'public_price',
  label: '作弊',
  labelEn: 'Cheating',
  value: '5000',
  sort: 1,
  cssClass: '',
  listClass: 'default',
  isDefault: false,
  parentId: null,
  status: 1,
  remark: '发现外挂，记录证据',
  remarkEn: 'Cheat software found',
  createdTime: '2026-01-02T03:04:05.000Z',
};

describe('the dictionary entry form', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the English remark next to the Chinese one and sends it when saved', async () => {
    const { calls } = serveApi((call) =>
      call.path === '/api/admin/dict/data' ? { status: 200, msg: 'ok', data: cheating } : { status: 200, msg: 'ok', data: [] },
    );
    const { user } = renderInApp(
      <DictDataFormModal open entry={cheating} typeCode="public_price" types={[priceType]} onClose={() => undefined} />,
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('中文备注')).toBeTruthy();
    expect(within(dialog).getByText('英文备注')).toBeTruthy();
    const english = within(dialog).getByTestId('dict-data-form-remark-en');
    expect((english as HTMLTextAreaElement).value).toBe('Cheat software found');

    await user.clear(english);
    await user.type(english, ' Cheat software found; the evidence is recorded ');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT' && c.path === '/api/admin/dict/data')).toBeTruthy());
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      id: 41,
      remark: '发现外挂，记录证据',
      remarkEn: 'Cheat software found; the evidence is recorded',
    });
  });

  it('sends an empty English remark when none is written (readers then see the Chinese one)', async () => {
    const { calls } = serveApi((call) =>
      call.path === '/api/admin/dict/data' ? { status: 200, msg: 'ok', data: cheating } : { status: 200, msg: 'ok', data: [] },
    );
    const { user } = renderInApp(
      <DictDataFormModal open entry={null} typeCode="public_price" types={[priceType]} onClose={() => undefined} />,
    );
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByTestId('dict-data-form-label'), '正常');
    await user.type(within(dialog).getByTestId('dict-data-form-value'), '3000');
    await user.type(within(dialog).getByTestId('dict-data-form-remark'), '未发现问题');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST' && c.path === '/api/admin/dict/data')).toBeTruthy());
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ remark: '未发现问题', remarkEn: '' });
  });
});
