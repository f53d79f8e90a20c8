import type { Plugin } from 'vite';

/**
 * Modules of ECharts 6 / zrender 6 that `echarts/core` pulls in whatever one registers, for
 * features none of the app's charts use (decision 0073). In the production build each is
 * replaced by the stub below, with the same exports: either a no-op equivalent, or a function
 * that throws a clear error should a future chart start using the feature. Everything else
 * (line, bar and pie charts, the grid, tooltip, legend, animations, dark theme) is untouched.
 *
 * The build fails when a target is no longer in the module graph (an ECharts upgrade moved or
 * dropped it: review this list), and `src/components/charts/echarts-trim.test.ts` checks each
 * stub still has the real module's exports. Development (`vite`) serves ECharts whole.
 */
export const ECHARTS_STUBS: readonly { target: string; why: string; code: string }[] = [
  {
    target: 'echarts/lib/util/decal.js',
    why: 'decal patterns (aria.decal, itemStyle.decal): not used',
    code: 'export function createOrUpdatePatternFromDecal() { return null; }',
  },
  {
    target: 'echarts/lib/loading/default.js',
    why: 'chart.showLoading(): screens show antd skeletons instead',
    code: 'export default function defaultLoading() { throw new Error("ECharts showLoading() is not in this build (decision 0073)"); }',
  },
  {
    target: 'echarts/lib/legacy/dataSelectAction.js',
    why: "ECharts 4's pieselectchanged events and pieToggleSelect actions: not used",
    code: 'export function createLegacyDataSelectAction() {}\nexport function handleLegacySelectEvents() {}',
  },
  {
    target: 'echarts/lib/preprocessor/backwardCompat.js',
    why: 'rewriting of ECharts 2–4 option names (itemStyle.normal, barBorderRadius, x/y/x2/y2…): the app writes ECharts 6 options',
    code: 'import { normalizeToArray } from "../util/model.js";\nexport default function globalBackwardCompat(option) { option.series = normalizeToArray(option.series); }',
  },
  {
    target: 'echarts/lib/i18n/langZH.js',
    why: "ECharts' own Chinese texts (toolbox, aria, time-axis month names): none is shown; the app's labels come from i18next",
    code: 'export { default } from "./langEN.js";',
  },
  {
    target: 'echarts/lib/component/tooltip/TooltipRichContent.js',
    why: "tooltip.renderMode 'richText' (canvas tooltips outside a browser): the app's tooltips are HTML",
    code: 'export default function TooltipRichContent() { throw new Error("ECharts richText tooltips are not in this build (decision 0073)"); }',
  },
  {
    target: 'zrender/lib/core/timsort.js',
    why: "zrender's stable sort: Array.prototype.sort is stable in every browser the app supports (ES2019)",
    code: [
      'export default function sort(array, compare, lo, hi) {',
      '  if (lo == null && hi == null) { array.sort(compare); return; }',
      '  var from = lo || 0, part = array.slice(from, hi == null ? array.length : hi).sort(compare);',
      '  for (var i = 0; i < part.length; i++) array[from + i] = part[i];',
      '}',
    ].join('\n'),
  },
  {
    target: 'zrender/lib/core/GestureMgr.js',
    why: 'two-finger pinch recognition (dataZoom inside, roam): no chart zooms',
    code: 'export function GestureMgr() {}\nGestureMgr.prototype.recognize = function () {};\nGestureMgr.prototype.clear = function () { return this; };',
  },
  {
    target: 'echarts/lib/scale/Time.js',
    why: "time axes (xAxis.type 'time'): the charts use category and value axes",
    code: [
      'function notBuilt() { throw new Error("ECharts time axes are not in this build (decision 0073)"); }',
      'export default function TimeScale() { notBuilt(); }',
      'TimeScale.type = "time";',
      'export var calcNiceForTimeScale = notBuilt;',
    ].join('\n'),
  },
  {
    target: 'echarts/lib/scale/Log.js',
    why: "logarithmic axes (type 'log'): not used",
    code: 'export default function LogScale() { throw new Error("ECharts log axes are not in this build (decision 0073)"); }\nLogScale.type = "log";',
  },
  {
    target: 'echarts/lib/data/helper/transform.js',
    why: 'dataset transforms (filter, sort, registerTransform): the charts take their data in series',
    code: [
      'export function ExternalSource() {}',
      'export function registerExternalTransform() {}',
      'export function applyDataTransform() { throw new Error("ECharts dataset transforms are not in this build (decision 0073)"); }',
    ].join('\n'),
  },
];

const normalize = (id: string) => id.replace(/\\/g, '/').split('?')[0]!;

/** Replaces the modules of ECHARTS_STUBS with their stubs in the production build. */
export function echartsTrim(): Plugin {
  const replaced = new Set<string>();
  return {
    name: 'clearplay:echarts-trim',
    apply: 'build',
    buildStart() {
      replaced.clear();
    },
    load(id) {
      const path = normalize(id);
      const stub = ECHARTS_STUBS.find((s) => path.endsWith(`/node_modules/${s.target}`));
      if (!stub) return null;
      replaced.add(stub.target);
      return { code: stub.code, moduleSideEffects: false };
    },
    buildEnd(error) {
      if (error) return;
      const missing = ECHARTS_STUBS.filter((s) => !replaced.has(s.target)).map((s) => s.target);
      // Only a build that bundles the charts at all (the back office's) must meet them all.
      if (missing.length > 0 && replaced.size > 0) {
        this.error(`echarts-trim: ${missing.join(', ')} no longer in the bundle; review ECHARTS_STUBS (decision 0073)`);
      }
    },
  };
}
