export { EChart } from './EChart.tsx';
export { axisStyle, baseOption, resultColors, type ChartTokens } from './chart-style.ts';
