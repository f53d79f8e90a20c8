export { VisitStatsSection } from './components/VisitStatsSection.tsx';
