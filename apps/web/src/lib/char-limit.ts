import type { InputProps } from 'antd';
import { charCount, cutToChars } from '@clearplay/contract/constants';

type CountConfig = NonNullable<InputProps['count']>;

const configs = new Map<number, CountConfig>();

/**
 * The limit of a text field (antd Input, Input.TextArea, Input.Password), counted in
 * characters as the server counts it (code points, `charCount`): `count={charLimit(64)}`
 * keeps 64 emoji where the browser's `maxLength` (UTF-16 units) keeps 32. Text typed or
 * pasted beyond the limit is cut to its first `max` characters, never in half of one; while
 * an input method composes, antd waits for the end of the composition. `showCount` beside it
 * shows "n / max" in the same characters. One object per limit, so antd's memo holds.
 */
export function charLimit(max: number): CountConfig {
  let config = configs.get(max);
  if (!config) {
    config = { max, strategy: charCount, exceedFormatter: (text, { max: limit }) => cutToChars(text, limit) };
    configs.set(max, config);
  }
  return config;
}
