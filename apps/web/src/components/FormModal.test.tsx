import { useState } from 'react';
import { Button, Form, Input } from 'antd';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { api } from '../lib/api-client.ts';
import { serveApi, type ApiAnswer } from '../test/fake-api.ts';
import { renderInApp } from '../test/render.tsx';
import { FormModal } from './FormModal.tsx';

interface Shop {
  name: string;
  phone: string;
}

/** A shop's fields, with their rules. */
const shopFields = (
  <>
    <Form.Item name="name" label="店铺名称" rules={[{ required: true, whitespace: true, message: '请输入店铺名称' }]}>
      <Input />
    </Form.Item>
    <Form.Item name="phone" label="电话" rules={[{ pattern: /^\d{11}$/, message: '电话须为 11 位数字' }]}>
      <Input />
    </Form.Item>
  </>
);

/** A screen as the features write one: a button opens the dialog, OK posts the values through the API client. */
function ShopScreen({ onSaved = () => undefined }: { onSaved?: (shop: Shop) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>新建店铺</Button>
      <FormModal<Shop, Shop>
        open={open}
        title="新建店铺"
        onClose={() => setOpen(false)}
        onSubmit={(values) => api.post<Shop>('/admin/shops', values)}
        onSuccess={(shop) => onSaved(shop)}
        successMessage="创建成功"
        initialValues={{ phone: '' }}
      >
        {shopFields}
      </FormModal>
    </>
  );
}

/** A list screen as the features write one: one dialog, always mounted, for "new" and for each row's "edit". */
function ShopsScreen() {
  const shops: Shop[] = [
    { name: '一号店', phone: '13800000001' },
    { name: '二号店', phone: '13800000002' },
  ];
  const [editing, setEditing] = useState<{ open: boolean; shop: Shop | null }>({ open: false, shop: null });
  return (
    <>
      <Button onClick={() => setEditing({ open: true, shop: null })}>新建店铺</Button>
      {shops.map((shop) => (
        <Button key={shop.name} onClick={() => setEditing({ open: true, shop })}>
          编辑{shop.name}
        </Button>
      ))}
      <FormModal<Shop>
        open={editing.open}
        title={editing.shop ? `编辑 ${editing.shop.name}` : '新建店铺'}
        onClose={() => setEditing({ open: false, shop: null })}
        onSubmit={() => Promise.resolve()}
        initialValues={editing.shop ?? { phone: '' }}
      >
        {shopFields}
      </FormModal>
    </>
  );
}

const ok = (data: unknown): ApiAnswer => ({ status: 200, msg: 'ok', data });

describe('FormModal', () => {
  it('opens with its title, fields and buttons, and closes on cancel without sending anything', async () => {
    const server = serveApi(() => ok(null));
    const { user } = renderInApp(<ShopScreen />);
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(screen.getByRole('button', { name: '新建店铺' }));
    const dialog = await screen.findByRole('dialog', { name: '新建店铺' });
    expect(within(dialog).getByLabelText('店铺名称')).toBeTruthy();
    expect(within(dialog).getByLabelText('电话')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: '确 定' })).toBeTruthy();

    await user.type(within(dialog).getByLabelText('店铺名称'), '一号店');
    await user.click(within(dialog).getByRole('button', { name: '取 消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.calls).toEqual([]);

    // opened again, it starts empty (the form is destroyed on close)
    await user.click(screen.getByRole('button', { name: '新建店铺' }));
    const reopened = await screen.findByRole('dialog', { name: '新建店铺' });
    expect(within(reopened).getByLabelText<HTMLInputElement>('店铺名称').value).toBe('');
  });

  it('starts each opening from its own record: an edit leaves nothing in "new", and "new" nothing in the next edit', async () => {
    serveApi(() => ok(null));
    const { user } = renderInApp(<ShopsScreen />);
    const open = async (button: string, title: string) => {
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      await user.click(screen.getByRole('button', { name: button }));
      return screen.findByRole('dialog', { name: title });
    };
    const value = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText<HTMLInputElement>(label).value;

    let dialog = await open('编辑一号店', '编辑 一号店');
    expect([value(dialog, '店铺名称'), value(dialog, '电话')]).toEqual(['一号店', '13800000001']);
    await user.click(within(dialog).getByRole('button', { name: '取 消' }));

    dialog = await open('新建店铺', '新建店铺');
    expect([value(dialog, '店铺名称'), value(dialog, '电话')]).toEqual(['', '']);
    await user.type(within(dialog).getByLabelText('店铺名称'), '三号店');
    await user.click(within(dialog).getByRole('button', { name: '取 消' }));

    dialog = await open('编辑二号店', '编辑 二号店');
    expect([value(dialog, '店铺名称'), value(dialog, '电话')]).toEqual(['二号店', '13800000002']);
  });

  it('shows the field rules’ messages and sends nothing while they fail', async () => {
    const server = serveApi(() => ok(null));
    const { user } = renderInApp(<ShopScreen />);
    await user.click(screen.getByRole('button', { name: '新建店铺' }));
    const dialog = await screen.findByRole('dialog', { name: '新建店铺' });

    await user.type(within(dialog).getByLabelText('电话'), '123');
    await user.click(within(dialog).getByRole('button', { name: '确 定' }));
    expect(await within(dialog).findByText('请输入店铺名称')).toBeTruthy();
    expect(await within(dialog).findByText('电话须为 11 位数字')).toBeTruthy();
    expect(within(dialog).getByLabelText('店铺名称').getAttribute('aria-invalid')).toBe('true');
    expect(server.calls).toEqual([]);

    // fixing the fields clears the messages
    await user.type(within(dialog).getByLabelText('店铺名称'), '一号店');
    await user.clear(within(dialog).getByLabelText('电话'));
    await user.type(within(dialog).getByLabelText('电话'), '13800000000');
    await waitFor(() => expect(within(dialog).queryByText('请输入店铺名称')).toBeNull());
    await waitFor(() => expect(within(dialog).queryByText('电话须为 11 位数字')).toBeNull());
    expect(server.calls).toEqual([]);
  });

  it('submits the values, shows a loading OK button until the server answers, then toasts and closes', async () => {
    let answer!: (envelope: ApiAnswer) => void;
    const server = serveApi(() => new Promise<ApiAnswer>((resolve) => (answer = resolve)));
    const onSaved = vi.fn();
    const { user } = renderInApp(<ShopScreen onSaved={onSaved} />);
    await user.click(screen.getByRole('button', { name: '新建店铺' }));
    const dialog = await screen.findByRole('dialog', { name: '新建店铺' });

    await user.type(within(dialog).getByLabelText('店铺名称'), '一号店');
    await user.type(within(dialog).getByLabelText('电话'), '13800000000');
    const okButton = within(dialog).getByRole('button', { name: /确 定/ });
    await user.click(okButton);

    await waitFor(() => expect(server.calls).toHaveLength(1));
    expect(server.calls[0]).toMatchObject({ method: 'POST', path: '/api/admin/shops', body: { name: '一号店', phone: '13800000000' } });
    // waiting for the server: a spinner on OK, and a second click sends nothing more
    await waitFor(() => expect(within(okButton).getByRole('img', { name: 'loading' })).toBeTruthy());
    await user.click(okButton);
    expect(server.calls).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: '新建店铺' })).toBeTruthy();

    answer(ok({ name: '一号店', phone: '13800000000' }));
    expect(await screen.findByText('创建成功')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onSaved).toHaveBeenCalledWith({ name: '一号店', phone: '13800000000' });
  });

  it('Enter in a field submits like OK', async () => {
    const server = serveApi(() => ok({ name: '二号店', phone: '' }));
    const { user } = renderInApp(<ShopScreen />);
    await user.click(screen.getByRole('button', { name: '新建店铺' }));
    const dialog = await screen.findByRole('dialog', { name: '新建店铺' });
    await user.type(within(dialog).getByLabelText('店铺名称'), '二号店{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.calls.map((c) => c.body)).toEqual([{ name: '二号店', phone: '' }]);
  });

  it('puts the server’s field errors on their fields, lists the others above the form, and stays open', async () => {
    serveApi(() => ({
      status: 400,
      msg: '参数校验失败',
      data: {
        errors: [
          { field: '/name', message: '店铺名称已存在' },
          { field: 'body/region', message: '该地区未开通' },
        ],
      },
    }));
    const { user } = renderInApp(<ShopScreen />);
    await user.click(screen.getByRole('button', { name: '新建店铺' }));
    const dialog = await screen.findByRole('dialog', { name: '新建店铺' });
    await user.type(within(dialog).getByLabelText('店铺名称'), '一号店');
    await user.click(within(dialog).getByRole('button', { name: '确 定' }));

    expect(await within(dialog).findByText('店铺名称已存在')).toBeTruthy();
    expect(within(dialog).getByLabelText('店铺名称').getAttribute('aria-invalid')).toBe('true');
    const alert = within(dialog).getByRole('alert');
    expect(alert.textContent).toContain('body/region: 该地区未开通');
    // the API client's error toast too
    expect(await screen.findByText('参数校验失败')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: '新建店铺' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: '确 定' }).className).not.toContain('ant-btn-loading');
    // Cancelled and opened again: a new start, without the last attempt's errors.
    await user.click(within(dialog).getByRole('button', { name: '取 消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: '新建店铺' }));
    const reopened = await screen.findByRole('dialog', { name: '新建店铺' });
    expect(within(reopened).queryByRole('alert')).toBeNull();
    expect(within(reopened).queryByText('店铺名称已存在')).toBeNull();
  });
});
