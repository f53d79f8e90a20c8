import type { Key, ReactNode } from 'react';
import type { ColumnType } from 'antd/es/table';

/** How a column is searched in the search form above the table. */
export type SearchField =
  | { type: 'input'; name?: string; placeholder?: string }
  | {
      type: 'select';
      name?: string;
      options: ReadonlyArray<{ label: ReactNode; value: string | number | boolean }>;
      placeholder?: string;
      /** Type the option text to filter (default true). */
      showSearch?: boolean;
    }
  | { type: 'dict'; dictType: string; name?: string; numeric?: boolean; placeholder?: string }
  | {
      type: 'dateRange';
      /** The two query params, e.g. ['createdStart', 'createdEnd']; sent as ISO instants. */
      names: readonly [string, string];
      /** Pick times too; without it the range runs from the first day's 00:00 to the last day's end. */
      showTime?: boolean;
    }
  | {
      type: 'user';
      name?: string;
      /** Only users of this role (e.g. 'shop'). */
      roleName?: string;
      /** What the param carries: the user's id (default) or username. */
      valueKey?: 'id' | 'username';
      placeholder?: string;
    };

export interface SearchTableColumn<Row> extends Omit<ColumnType<Row>, 'key' | 'title'> {
  /** Unique; the column settings remember columns by it. */
  key: string;
  /** The header, also the label of the search field and of the column settings entry. */
  title: string;
  /** A search field for this column (the param name defaults to the key). */
  search?: SearchField;
  /** The search field's label when it differs from the title. */
  searchLabel?: string;
  /** A search field only, no column. */
  hideInTable?: boolean;
  /** Hidden until the user shows it in the column settings. */
  defaultHidden?: boolean;
  /**
   * Sorted by the server: a header click cycles ascending, descending, default and sends
   * `sortField=<this>&sortOrder=ascend|descend` (page 1 again).
   */
  sortParam?: string;
}

/** mini is antd's small with tighter padding (a CSS class). */
export type Density = 'mini' | 'small' | 'medium' | 'large';

export interface TablePage<Row> {
  list: Row[];
  total: number;
}

export type QueryParams = Record<string, string | number | boolean | undefined>;

export interface ToolbarContext<Row> {
  /** The list's current params without paging (filters and sort): what an export sends. */
  params: QueryParams;
  selectedRowKeys: Key[];
  selectedRows: Row[];
  clearSelection: () => void;
  reload: () => Promise<unknown>;
}

/** What `actionRef` offers the screen. */
export interface SearchTableActions {
  /** Fetch the current page again. */
  reload: () => Promise<unknown>;
  /** Clear the search form and query from page 1. */
  reset: () => void;
  /** Fill the search form with `values` and query from page 1. */
  search: (values: Record<string, unknown>) => void;
  clearSelection: () => void;
}
