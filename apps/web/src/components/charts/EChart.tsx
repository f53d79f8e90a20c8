import { useEffect, useRef } from 'react';
import { theme } from 'antd';
import type { EChartsCoreOption, EChartsType } from 'echarts/core';
import { useAppState } from '../../lib/settings.ts';
import { useReducedMotion } from '../../lib/theme.ts';
import type * as EchartsSetup from './echarts-setup.ts';

/** Colours after the theme colour (which always comes first), for second and later series. */
const PALETTE = ['#14C9C9', '#F7BA1E', '#722ED1', '#F53F3F', '#00B42A', '#3491FA', '#FF7D00'];

let setup: Promise<typeof EchartsSetup> | undefined;
const loadEcharts = () => (setup ??= import('./echarts-setup.ts'));

/**
 * One chart. ECharts loads with the first chart shown (its own chunk); the chart follows dark
 * mode (ECharts' built-in dark theme on a transparent background) and the theme colour (the
 * first series colour), and resizes with its box (ResizeObserver: the menu collapsing, the
 * window, a 390 px phone). Its text is in the app's font unless the option says otherwise: ECharts
 * lays labels out by measuring them on a canvas outside the page, where a generic font
 * ('sans-serif', its default) is not the one the page's language draws with (a Chinese page
 * draws Latin letters wider), so labels laid out for one font and drawn in another were cut at
 * the chart's side ("ttps://mp.weixin.qq.com"). A named font measures and draws alike. A reader
 * who asks their system for reduced motion gets the charts drawn at once, without their growing
 * and sliding animations, as the rest of the app does (antd's motion is off for them too).
 */
export function EChart({ option, height = 300, testId }: { option: EChartsCoreOption; height?: number; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const dark = useAppState((s) => s.theme === 'dark');
  const themeColor = useAppState((s) => s.themeColor);
  const { token } = theme.useToken();
  const reducedMotion = useReducedMotion();
  const full: EChartsCoreOption = {
    backgroundColor: 'transparent',
    color: [themeColor, ...PALETTE],
    textStyle: { fontFamily: token.fontFamily },
    ...option,
    ...(reducedMotion ? { animation: false } : {}),
  };
  const latest = useRef(full);
  useEffect(() => {
    latest.current = full;
  });

  // (Re)create the chart when the theme changes; dispose it when the component goes.
  useEffect(() => {
    let cancelled = false;
    let observer: ResizeObserver | undefined;
    void loadEcharts().then(({ init }) => {
      if (cancelled || !box.current) return;
      const instance = init(box.current, dark ? 'dark' : undefined);
      instance.setOption(latest.current);
      chart.current = instance;
      observer = new ResizeObserver(() => instance.resize());
      observer.observe(box.current);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, [dark]);

  // New data or colour: replace the option (notMerge, so removed series go).
  const serialized = JSON.stringify(full);
  useEffect(() => {
    chart.current?.setOption(latest.current, true);
  }, [serialized]);

  return <div ref={box} data-testid={testId} className="echart" style={{ width: '100%', height }} />;
}
