/** The wire contract shared by the server, the web app and the mocks. */

export type SortDir = 'asc' | 'desc';

export interface PageInfo {
  /** Zero-based page number. */
  page: number;
  size: number;
  /**
   * The key of the last row of the previous page: the page starts right after that row in the requested order,
   * found through the index instead of counting `page * size` rows (`page` is then only echoed). For clients
   * that walk a long list page by page.
   */
  after?: number | string;
}

export interface ListRequest {
  sortBy?: string;
  sortDir?: SortDir;
  searchBy?: string;
  searchKey?: string;
  page?: PageInfo;
}

export interface Page<T> {
  items: T[];
  totalPageCount: number;
  totalItemsCount: number;
  /** True when `totalItemsCount` is an estimate (a large list counted without a full scan); screens show it as approximate. */
  totalIsEstimate?: boolean;
  /** Zero-based; screens show it plus one. */
  currentPage: number;
}

export interface FieldError {
  /** Property name, e.g. "name"; empty for the whole body. */
  field: string;
  /** The JSON Schema keyword that failed, e.g. "minLength", or "unique". */
  rule: string;
  /** Message id in the i18n catalogues. */
  messageId: string;
  /** English text of the message. */
  message: string;
}

export interface ApiError {
  statusCode: number;
  code: string;
  message: string;
  fields?: FieldError[];
}

export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 50;

export function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && 'statusCode' in value && 'code' in value;
}

/** Page count for a total, never below 1 so "page 1 of 1" reads right for an empty list. */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/** The page envelope of `items`, page `page` (zero-based) of `size` rows out of `total`; `estimate` when the total is one. */
export function pageAnswer<T>(items: T[], total: number, page: number, size: number, estimate = false): Page<T> {
  return { items, totalItemsCount: total, totalPageCount: pageCount(total, size), currentPage: page, ...(estimate ? { totalIsEstimate: true } : {}) };
}
