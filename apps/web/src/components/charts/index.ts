export { EChart } from './EChart.tsx';
