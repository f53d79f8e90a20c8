/**
 * ECharts through `echarts/core` with only what the charts of the app use: line, bar and pie charts,
 * the grid, tooltip and a plain legend, on the canvas renderer. Loaded on demand by EChart.tsx (a lazy
 * chunk of its own), so neither the login nor the landing page ever carries it. The build replaces the
 * ECharts modules of features none of these use (echarts-trim.ts, decision 0073); the chunk's budget,
 * 175 KB (175,000 B) gzip, is checked by `scripts/first-load.mjs --page charts`: measure before registering more.
 */
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendPlainComponent, TooltipComponent } from 'echarts/components';
import { init, use as registerParts } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

registerParts([LineChart, BarChart, PieChart, GridComponent, TooltipComponent, LegendPlainComponent, CanvasRenderer]);

export { init };
