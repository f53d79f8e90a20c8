import { useEffect, useRef } from 'react';
import type { theme } from 'antd';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridSimpleComponent, LegendPlainComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { EChartsCoreOption } from 'echarts/core';

// Only what the workplace and the order analysis draw (the chunk stays small; decision 0043).
echarts.use([LineChart, BarChart, PieChart, GridSimpleComponent, TooltipComponent, LegendPlainComponent, CanvasRenderer]);

/** The antd tokens a chart takes its colours from (theme colour, dark mode). */
export type ChartTokens = ReturnType<typeof theme.useToken>['token'];

/**
 * One ECharts canvas. The option is built from the antd tokens (so it follows the theme colour
 * and dark mode); the chart resizes with its box (side menu collapse, window, 390 px phones).
 */
export function EChart({ option, height, 'data-testid': testId }: { option: EChartsCoreOption; height: number; 'data-testid'?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const instance = echarts.init(el, undefined, { renderer: 'canvas' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption({ backgroundColor: 'transparent', ...option }, true);
  }, [option]);

  return <div ref={box} style={{ width: '100%', height }} data-testid={testId} />;
}

/** Axis, legend and tooltip colours from the tokens. */
export const baseOption = (token: ChartTokens) => ({
  textStyle: { color: token.colorText, fontFamily: token.fontFamily },
  tooltip: {
    backgroundColor: token.colorBgElevated,
    borderColor: token.colorBorderSecondary,
    textStyle: { color: token.colorText },
  },
  legend: { textStyle: { color: token.colorTextSecondary }, top: 0 },
});

export const axisStyle = (token: ChartTokens) => ({
  axisLine: { lineStyle: { color: token.colorBorder } },
  axisLabel: { color: token.colorTextSecondary },
  splitLine: { lineStyle: { color: token.colorBorderSecondary } },
});

/** Colours of the order results 0–3 (normal, cheating, not passed, suspicious), as their dictionary tags. */
export const resultColors = (token: ChartTokens) => [token.colorSuccess, token.colorError, token.colorInfo, token.colorWarning];
