import { lazy } from 'react';

/**
 * The workplace feature's parts for other screens. `OrdersAnalysis` (orders by result, game and
 * shop over a range, GET /admin/analysis/orders) is for the data-analysis page; it is lazy, so
 * ECharts stays in its own chunk: render it inside a Suspense.
 */
export const OrdersAnalysis = lazy(() => import('./components/OrdersAnalysis.tsx'));
