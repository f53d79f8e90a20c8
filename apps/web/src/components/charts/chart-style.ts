/** Chart styles from the antd tokens (theme colour, dark mode), shared by every screen that draws charts. */
import type { theme } from 'antd';

/** The antd tokens a chart takes its colours from (theme colour, dark mode). */
export type ChartTokens = ReturnType<typeof theme.useToken>['token'];

/** Axis, legend and tooltip colours from the tokens. */
export const baseOption = (token: ChartTokens) => ({
  textStyle: { color: token.colorText, fontFamily: token.fontFamily },
  tooltip: {
    backgroundColor: token.colorBgElevated,
    borderColor: token.colorBorderSecondary,
    textStyle: { color: token.colorText },
  },
  legend: { textStyle: { color: token.colorTextSecondary }, top: 0 },
});

export const axisStyle = (token: ChartTokens) => ({
  axisLine: { lineStyle: { color: token.colorBorder } },
  axisLabel: { color: token.colorTextSecondary },
  splitLine: { lineStyle: { color: token.colorBorderSecondary } },
});

/** Colours of the order results 0–3 (normal, cheating, not passed, suspicious), as their dictionary tags. */
export const resultColors = (token: ChartTokens) => [token.colorSuccess, token.colorError, token.colorInfo, token.colorWarning];
