export { SearchTable, type SearchTableProps } from './SearchTable.tsx';
export type { Density, QueryParams, SearchField, SearchTableActions, SearchTableColumn, TablePage, ToolbarContext } from './types.ts';
export { tableScrollWidth } from './fit-columns.ts';
