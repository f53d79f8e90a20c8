// The chart's options as ECharts receives them. ECharts itself (a library, drawing on a canvas
// that jsdom does not have) is replaced by a recorder of the options it is given.
import { render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const given: Record<string, unknown>[] = [];
vi.mock('./echarts-setup.ts', () => ({
  init: () => ({
    setOption: (option: Record<string, unknown>) => void given.push(option),
    resize: () => undefined,
    dispose: () => undefined,
  }),
}));

const { EChart } = await import('./EChart.tsx');

const OPTION = { xAxis: { type: 'category', data: ['a', 'b'] }, yAxis: { type: 'value' }, series: [{ type: 'bar', data: [1, 2] }] };

/** The page's answer to the reduced-motion query, for the test's length. */
function systemAsks(reduced: boolean): void {
  const real = window.matchMedia;
  vi.stubGlobal('matchMedia', (query: string) =>
    query.includes('prefers-reduced-motion') ? { ...real(query), matches: reduced && query.includes('reduce') } : real(query),
  );
}

afterEach(() => {
  given.length = 0;
});

describe('EChart', () => {
  it('draws without animation for a reader whose system asks for reduced motion, whatever the option says', async () => {
    systemAsks(true);
    render(<EChart option={{ ...OPTION, animation: true }} />);
    await waitFor(() => expect(given).toHaveLength(1));
    expect(given[0]).toMatchObject({ animation: false, series: OPTION.series });
  });

  it('keeps the animation, and an option may still set it, for everyone else', async () => {
    systemAsks(false);
    render(<EChart option={{ ...OPTION, animationDuration: 300 }} />);
    await waitFor(() => expect(given).toHaveLength(1));
    expect(given[0]).not.toHaveProperty('animation');
    expect(given[0]).toMatchObject({ animationDuration: 300 });
  });
});
