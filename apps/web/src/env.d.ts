interface ImportMetaEnv {
  /** The address of antd's static stylesheet (antd-static-css.ts); undefined in development and tests. */
  readonly ANTD_STYLESHEET?: string;
}
