import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const here = new URL('.', import.meta.url).pathname;
const src = join(here, '..');

/** Every message catalogue, by language: zh-CN.ts, screens/zh-CN.ts and each screens/<part>.zh-CN.ts. */
const catalogues = import.meta.glob<Record<string, unknown>>(['./*.ts', './screens/*.ts', '!./*.test.ts'], { eager: true });

/** The catalogue object of a module: its default export, or its one exported object. */
function messagesOf(module: Record<string, unknown>): Record<string, string> {
  const value = module.default ?? Object.values(module).find((v) => v && typeof v === 'object');
  return value as Record<string, string>;
}

describe('message catalogues', () => {
  const pairs = Object.keys(catalogues)
    .filter((file) => /zh-CN\.ts$/.test(file))
    .map((zh) => [zh, zh.replace('zh-CN.ts', 'en-US.ts')] as const);

  it('come in pairs (every zh-CN file has its en-US twin)', () => {
    expect(pairs.length).toBeGreaterThanOrEqual(3);
    for (const [, en] of pairs) expect(Object.keys(catalogues), en).toContain(en);
  });

  it.each(pairs)('%s and its en-US twin have exactly the same keys, none empty', (zh, en) => {
    const zhMessages = messagesOf(catalogues[zh] ?? {});
    const enMessages = messagesOf(catalogues[en] ?? {});
    expect(Object.keys(enMessages).sort()).toEqual(Object.keys(zhMessages).sort());
    const empty = [...Object.entries(zhMessages), ...Object.entries(enMessages)].filter(
      ([, text]) => typeof text !== 'string' || !text.trim(),
    );
    expect(empty).toEqual([]);
  });
});

// ---- No hard-coded visible text in JSX ------------------------------------------------

/** Attributes whose string value a reader sees or hears. */
const VISIBLE_ATTRIBUTES = new Set(['title', 'placeholder', 'label', 'aria-label', 'alt', 'tooltip', 'okText', 'cancelText', 'content']);
/** Text that is not language: punctuation, digits, symbols, a currency sign, a heading glyph (H1–H6) on a toolbar button. */
const NOT_WORDS = /^(?:[\s\d\p{P}\p{S}]*|\s*H[1-6]\s*)$/u;

function tsxFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test' ? [] : tsxFiles(path);
    return path.endsWith('.tsx') && !path.endsWith('.test.tsx') ? [path] : [];
  });
}

function literalTexts(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const where = (node: ts.Node) => `${relative(src, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && !NOT_WORDS.test(node.text)) found.push(`${where(node)} text "${node.text.trim()}"`);
    // <meta content="…"> is read by crawlers, not by people (its words go through i18n where they are language).
    const onMeta = (attr: ts.JsxAttribute) => {
      const element = attr.parent.parent;
      return (ts.isJsxSelfClosingElement(element) || ts.isJsxOpeningElement(element)) && element.tagName.getText(source) === 'meta';
    };
    if (ts.isJsxAttribute(node) && node.initializer && ts.isStringLiteral(node.initializer) && !onMeta(node)) {
      const name = node.name.getText(source);
      if (VISIBLE_ATTRIBUTES.has(name) && !NOT_WORDS.test(node.initializer.text))
        found.push(`${where(node)} ${name}="${node.initializer.text}"`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('screens', () => {
  it('show no hard-coded words in JSX: every visible text goes through i18n', () => {
    const files = tsxFiles(src);
    expect(files.length).toBeGreaterThan(30);
    expect(files.flatMap(literalTexts)).toEqual([]);
  });
});
