import { useEffect, useImperativeHandle, useMemo, useRef, useState, type HTMLAttributes, type Key, type ReactNode, type Ref } from 'react';
import { useSearchParams } from 'react-router';
import { App, Button, Card, Dropdown, Form, Grid, Space, Table, Tooltip, type TableProps } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { ColumnHeightOutlined, ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../lib/current-user.ts';
import { tablePrefsKey } from '../../lib/storage.ts';
import { ColumnSettings } from './ColumnSettings.tsx';
import { defaultPrefs, readPrefs, reconcile, writePrefs, type TablePrefs } from './column-prefs.ts';
import { SELECTION_COLUMN_WIDTH, tableScrollWidth, useFitColumns } from './fit-columns.ts';
import { SearchForm } from './SearchForm.tsx';
import { sortOf, sortParams, toQueryParams, type SearchFieldDef, type TableSort } from './search-params.ts';
import type { Density, QueryParams, SearchTableActions, SearchTableColumn, TablePage, ToolbarContext } from './types.ts';
import './search-table.css';

export interface SearchTableProps<Row extends object> {
  /** Names the table in the saved column settings (per user): e.g. 'system-user'. */
  tableId: string;
  columns: SearchTableColumn<Row>[];
  /** The TanStack Query key prefix; the params (filters, page, pageSize) are appended. */
  queryKey: readonly unknown[];
  /** Loads one page. */
  fetcher: (params: QueryParams & { page: number; pageSize: number }, signal: AbortSignal) => Promise<TablePage<Row>>;
  rowKey: keyof Row & string;
  /** Params sent with every query besides the search form's (e.g. the dictionary type). */
  params?: QueryParams;
  /** The toolbar's left side: a title. */
  title?: ReactNode;
  /** The toolbar's actions (create, batch delete, ...), left of refresh/density/columns. */
  toolbar?: (context: ToolbarContext<Row>) => ReactNode;
  /** Checkboxes on the rows; the toolbar gets the selection. */
  selectable?: boolean | { disabled?: (row: Row) => boolean };
  defaultPageSize?: number;
  defaultDensity?: Density;
  /** Search form starts expanded. */
  defaultExpanded?: boolean;
  actionRef?: Ref<SearchTableActions>;
  /**
   * The least width of the table before it scrolls sideways. Without it the table takes what
   * its shown columns need (their widths, grown to fit their content); `true`: its content's.
   */
  scrollX?: number | true;
  expandable?: TableProps<Row>['expandable'];
  /**
   * Search fields a link may pre-fill through the URL's search params (e.g. the workplace's
   * cards: `/order/inspect?result=3`), with how each value is read. Applied on arrival and
   * whenever those params change.
   */
  urlFilters?: Readonly<Record<string, 'number' | 'string'>>;
  /** Toast when the list cannot be loaded (e.g. "dictionary type search failed"). */
  loadErrorMessage?: string;
  'data-testid'?: string;
}

const DENSITY_SIZE: Record<Density, TableProps['size']> = { mini: 'small', small: 'small', medium: 'middle', large: 'large' };
const PAGE_SIZES = [10, 20, 50, 100];

/** Reads the urlFilters from the URL (a router is there only when a page asks for them) and hands them on when they change. */
function UrlFilterSync({
  filters,
  onApply,
}: {
  filters: Readonly<Record<string, 'number' | 'string'>>;
  onApply: (values: Record<string, unknown>) => void;
}) {
  const [urlParams] = useSearchParams();
  const values: Record<string, unknown> = {};
  for (const [name, kind] of Object.entries(filters)) {
    const raw = urlParams.get(name);
    if (raw === null || raw.trim() === '') continue;
    if (kind === 'string') values[name] = raw.trim();
    else if (Number.isFinite(Number(raw))) values[name] = Number(raw);
  }
  const key = JSON.stringify(values);
  useEffect(() => {
    const next = JSON.parse(key) as Record<string, unknown>;
    if (Object.keys(next).length > 0) onApply(next);
    // Only when the URL's filters change (onApply is a fresh closure each render).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return null;
}

/**
 * The house list component (every list screen uses it): a search form that collapses and
 * expands (search, reset = clear and query again), a toolbar with the screen's actions plus
 * refresh, density (mini/small/medium/large) and column settings (show/hide, order) saved
 * per user in localStorage, row selection for batch actions, sorting by the server on
 * columns that name a `sortParam`, and pagination that keeps the filters and the sort.
 * Data comes through TanStack Query, keyed by `queryKey` + the params.
 */
export function SearchTable<Row extends object>({
  tableId,
  columns,
  queryKey,
  fetcher,
  rowKey,
  params: fixedParams,
  title,
  toolbar,
  selectable = false,
  defaultPageSize = 20,
  defaultDensity = 'medium',
  defaultExpanded = false,
  actionRef,
  scrollX,
  expandable,
  loadErrorMessage,
  urlFilters,
  'data-testid': testId,
}: SearchTableProps<Row>) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const userId = useCurrentUser()?.id ?? 'anonymous';
  const storageKey = tablePrefsKey(userId, tableId);

  const tableColumns = useMemo(() => columns.filter((c) => !c.hideInTable), [columns]);
  const fallback = useMemo(() => defaultPrefs(tableColumns, defaultDensity), [tableColumns, defaultDensity]);
  const [savedPrefs, setSavedPrefs] = useState<{ key: string; prefs: TablePrefs | null }>(() => ({
    key: storageKey,
    prefs: reconcile(tableColumns, readPrefs(storageKey), fallback),
  }));
  const prefs =
    savedPrefs.key === storageKey && savedPrefs.prefs ? savedPrefs.prefs : reconcile(tableColumns, readPrefs(storageKey), fallback);
  const savePrefs = (next: TablePrefs | null) => {
    writePrefs(storageKey, next);
    setSavedPrefs({ key: storageKey, prefs: next ?? fallback });
  };

  const searchFields = useMemo<SearchFieldDef[]>(
    () =>
      columns
        .filter((c) => c.search)
        .map((c) => ({
          name: c.search && 'name' in c.search && c.search.name ? c.search.name : c.key,
          label: c.searchLabel ?? c.title,
          field: c.search!,
        })),
    [columns],
  );

  const [filters, setFilters] = useState<QueryParams>({});
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(defaultPageSize);
  const [collapsed, setCollapsed] = useState(!defaultExpanded);
  const [selected, setSelected] = useState<{ keys: Key[]; rows: Row[] }>({ keys: [], rows: [] });
  const [sort, setSort] = useState<TableSort>(null);

  const listParams: QueryParams = { ...fixedParams, ...filters, ...sortParams(sort) };
  const params = { ...listParams, page, pageSize };
  const query = useQuery({
    queryKey: [...queryKey, params],
    queryFn: async ({ signal }) => {
      const result = await fetcher(params, signal).catch((error: unknown) => {
        if (loadErrorMessage && !signal.aborted) void message.error(loadErrorMessage);
        throw error;
      });
      // The last rows of the last page were deleted: show the page that is now last.
      if (result.list.length === 0 && page > 1 && result.total > 0) {
        const last = Math.max(1, Math.ceil(result.total / pageSize));
        return { ...(await fetcher({ ...params, page: last }, signal)), page: last };
      }
      return { ...result, page };
    },
    placeholderData: keepPreviousData,
  });
  const currentPage = query.data?.page ?? page;

  const clearSelection = () => setSelected({ keys: [], rows: [] });
  const reload = () => query.refetch();
  const runSearch = (values: Record<string, unknown>) => {
    const next = toQueryParams(searchFields, values);
    const same = JSON.stringify(next) === JSON.stringify(filters) && currentPage === 1;
    setFilters(next);
    setPage(1);
    clearSelection();
    if (same) void query.refetch();
  };
  const search = () => runSearch(form.getFieldsValue() as Record<string, unknown>);
  const reset = () => {
    form.resetFields();
    runSearch({});
  };

  /** A link's filters (urlFilters): fill the form and search with them. */
  const applyUrlFilters = (values: Record<string, unknown>) => {
    form.resetFields();
    form.setFieldsValue(values);
    runSearch(values);
    setCollapsed(false);
  };

  useImperativeHandle(actionRef, () => ({
    reload,
    reset,
    search: (values: Record<string, unknown>) => {
      form.resetFields();
      form.setFieldsValue(values);
      runSearch(values);
    },
    clearSelection,
  }));

  const titles = Object.fromEntries(tableColumns.map((c) => [c.key, c.title]));
  const hidden = new Set(prefs.hidden);
  const byKey = new Map(tableColumns.map((c) => [c.key, c]));
  // On a phone (below md) no column is pinned: a pinned first column and a pinned actions column
  // would cover each other (and the row's actions) in a table narrower than the two together.
  const pinColumns = Grid.useBreakpoint().md !== false;
  const visibleColumns = prefs.order
    .filter((key) => !hidden.has(key))
    .map((key) => byKey.get(key))
    .filter((c): c is SearchTableColumn<Row> => c !== undefined);
  // Each column as wide as its content needs in the language and density shown (measured), at
  // least the screen's width; only columns that ellipsize user text may cut it.
  const tableBox = useRef<HTMLDivElement>(null);
  const mayClip = useMemo(() => new Set(tableColumns.filter((c) => c.ellipsis).map((c) => c.key)), [tableColumns]);
  const rows = query.data?.list;
  const columnsShown = visibleColumns
    .map((c) => [c.key, c.width, c.minWidth, pinColumns ? c.fixed : '', typeof c.title === 'string' ? c.title : ''].join(':'))
    .join('|');
  const fitted = useFitColumns(tableBox, `${i18n.language}|${prefs.density}`, mayClip, { columns: columnsShown, rows });
  const shownColumns: ColumnsType<Row> = visibleColumns.map(
    ({ search: _search, searchLabel: _label, hideInTable: _hide, defaultHidden: _default, sortParam, ...column }) => ({
      ...column,
      ...(pinColumns ? {} : { fixed: undefined }),
      ...(fitted[column.key] !== undefined && fitted[column.key]! > (typeof column.width === 'number' ? column.width : 0)
        ? { width: fitted[column.key] }
        : {}),
      dataIndex: column.dataIndex ?? column.key,
      // The column's key on its cells: what the fitting measures.
      onHeaderCell: (col) => ({ ...column.onHeaderCell?.(col), 'data-column': column.key }) as HTMLAttributes<HTMLElement>,
      onCell: (row, index) => ({ ...column.onCell?.(row, index), 'data-column': column.key }) as HTMLAttributes<HTMLElement>,
      ...(sortParam ? { sorter: true, sortOrder: sort?.field === sortParam ? sort.order : null } : {}),
    }),
  );
  const extraColumns = (selectable ? SELECTION_COLUMN_WIDTH : 0) + (expandable ? SELECTION_COLUMN_WIDTH : 0);
  const needed = tableScrollWidth(shownColumns as ReadonlyArray<{ width?: number | string; minWidth?: number }>, extraColumns);
  const scrollWidth = scrollX === true ? true : Math.max(scrollX ?? 0, needed);
  const sortParamOf = new Map(tableColumns.filter((c) => c.sortParam).map((c) => [c.key, c.sortParam as string]));

  const densityItems = (['mini', 'small', 'medium', 'large'] as const).map((d) => ({ key: d, label: t(`table.density.${d}`) }));

  const context: ToolbarContext<Row> = {
    params: listParams,
    selectedRowKeys: selected.keys,
    selectedRows: selected.rows,
    clearSelection,
    reload,
  };
  const selectDisabled = typeof selectable === 'object' ? selectable.disabled : undefined;

  return (
    <div className="search-table" data-testid={testId}>
      {urlFilters ? <UrlFilterSync filters={urlFilters} onApply={applyUrlFilters} /> : null}
      {searchFields.length ? (
        <Card className="search-table-card" variant="borderless">
          <SearchForm
            name={`search-${tableId}`}
            form={form}
            fields={searchFields}
            collapsed={collapsed}
            onToggle={() => setCollapsed((c) => !c)}
            onSearch={search}
            onReset={reset}
            loading={query.isFetching}
          />
        </Card>
      ) : null}
      <Card className={searchFields.length ? 'search-table-main' : undefined} variant="borderless">
        <div className="search-table-toolbar">
          <div className="search-table-toolbar-left">{title ? <span className="search-table-toolbar-title">{title}</span> : null}</div>
          <div className="search-table-toolbar-right">
            {toolbar ? <Space wrap>{toolbar(context)}</Space> : null}
            <div className="search-table-tools">
              <Tooltip title={t('table.refresh')}>
                <Button
                  type="text"
                  icon={<ReloadOutlined spin={query.isFetching} />}
                  onClick={() => void reload()}
                  aria-label={t('table.refresh')}
                  data-testid="table-refresh"
                />
              </Tooltip>
              <Dropdown
                trigger={['click']}
                menu={{
                  items: densityItems,
                  selectable: true,
                  selectedKeys: [prefs.density],
                  onClick: ({ key }) => savePrefs({ ...prefs, density: key as Density }),
                }}
              >
                <Tooltip title={t('table.density')}>
                  <Button type="text" icon={<ColumnHeightOutlined />} aria-label={t('table.density')} data-testid="table-density" />
                </Tooltip>
              </Dropdown>
              <ColumnSettings titles={titles} prefs={prefs} onChange={savePrefs} onReset={() => savePrefs(null)} />
            </div>
          </div>
        </div>
        {selectable && selected.keys.length ? (
          <div className="search-table-selection">
            <span>{t('table.selected', { count: selected.keys.length })}</span>
            <Button type="link" size="small" onClick={clearSelection}>
              {t('table.clearSelection')}
            </Button>
          </div>
        ) : null}
        <div ref={tableBox}>
          <Table<Row>
            rowKey={rowKey}
            className={prefs.density === 'mini' ? 'search-table-mini' : undefined}
            size={DENSITY_SIZE[prefs.density]}
            columns={shownColumns}
            dataSource={rows ?? []}
            loading={query.isFetching}
            scroll={{ x: scrollWidth }}
            expandable={expandable}
            onChange={(_pagination, _filters, sorter, extra) => {
              if (extra.action !== 'sort' || Array.isArray(sorter)) return;
              setSort(sortOf(sorter, sortParamOf.get(String(sorter.columnKey))));
              setPage(1);
            }}
            rowSelection={
              selectable
                ? {
                    selectedRowKeys: selected.keys,
                    preserveSelectedRowKeys: true,
                    onChange: (keys, rows) => setSelected({ keys, rows }),
                    getCheckboxProps: selectDisabled ? (row) => ({ disabled: selectDisabled(row) }) : undefined,
                  }
                : undefined
            }
            pagination={{
              current: currentPage,
              pageSize,
              total: query.data?.total ?? 0,
              showSizeChanger: true,
              pageSizeOptions: PAGE_SIZES,
              showQuickJumper: true,
              showTotal: (total) => t('table.total', { total }),
              onChange: (nextPage, nextSize) => {
                if (nextSize !== pageSize) {
                  setPageSize(nextSize);
                  setPage(1);
                } else setPage(nextPage);
              },
            }}
          />
        </div>
      </Card>
    </div>
  );
}
