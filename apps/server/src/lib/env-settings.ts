/**
 * Environment variables read against a TypeBox schema (config.ts declares the settings, one
 * property each: type, default, bounds and help text). Each variable's text becomes a value by
 * its schema's kind, the defaults fill the unset ones, TypeBox checks the whole, and the first
 * failure becomes one sentence that names what was expected (decision 0107).
 */
import { Type, type Static, type TObject, type TSchema } from 'typebox';
import type { TLocalizedValidationError } from 'typebox/error';
import { Value } from 'typebox/value';

export type Env = Readonly<Record<string, string | undefined>>;

/** A variable's text, trimmed; unset or blank is undefined (as if not given). */
export const envText = (env: Env, name: string): string | undefined => {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
};

/** A setting's value that TypeBox checks is not what the variable says: `variable` `detail` is the sentence. */
export class SettingError extends Error {
  constructor(
    readonly variable: string,
    /** What is wrong, without the variable's name. */
    readonly detail: string,
  ) {
    super(`${variable} ${detail}`);
    this.name = 'SettingError';
  }
}

/**
 * Options of a setting's schema that only this reader uses (TypeBox keeps options it does not
 * know on the schema and ignores them).
 */
interface TextOptions {
  /** An integer setting that also takes a yes/no word, read as 1 / 0 (TRUST_PROXY). */
  orYesNo?: boolean;
  /** What an integer setting's messages say it must be, instead of "a whole number". */
  expects?: string;
}

/** A whole number from `minimum` to `maximum`, written in digits only: "1.5", "1e3", "-1" and "0x10" are refused. */
export const whole = (fallback: number, minimum: number, maximum: number, description: string, options: TextOptions = {}) =>
  Type.Integer({ default: fallback, minimum, maximum, description, ...options });

/** On or off: 1, true, yes, on / 0, false, no, off, in any case. */
export const flag = (fallback: boolean, description: string) => Type.Boolean({ default: fallback, description });

/** Text as written (trimmed), with an optional default and length bounds. */
export const text = (description: string, options: { default?: string; minLength?: number; maxLength?: number } = {}) =>
  Type.String({ ...options, description });

/** One of a few words, in any case (read lower-cased). */
export const choice = <const W extends string[]>(words: readonly [...W], fallback: W[number], description: string) =>
  Type.Enum(words, { default: fallback, description });

const YES = ['1', 'true', 'yes', 'on'];
const NO = ['0', 'false', 'no', 'off'];
const yesNo = (written: string): boolean | undefined =>
  YES.includes(written.toLowerCase()) ? true : NO.includes(written.toLowerCase()) ? false : undefined;

/**
 * The value a variable's text stands for, by its schema's kind; text that is not one is left as
 * it is, for the check to refuse. Not Value.Convert: it reads "1.5" as 1 and "1e3" as 1000, and
 * knows no "yes" or "on".
 */
function fromText(schema: TSchema, written: string): unknown {
  if (Type.IsInteger(schema)) {
    if (/^\d+$/.test(written)) return Number(written);
    const word = (schema as TextOptions).orYesNo === true ? yesNo(written) : undefined;
    return word === undefined ? written : Number(word);
  }
  if (Type.IsBoolean(schema)) return yesNo(written) ?? written;
  if (Type.IsEnum(schema)) return written.toLowerCase();
  if (Type.IsArray(schema)) return written.split(',').map((item) => item.trim());
  return written;
}

/** "a or b", "a, b or c"; a longer list "one of a, b, c, d". */
const wordList = (words: readonly unknown[]): string =>
  words.length > 3 ? `one of ${words.join(', ')}` : `${words.slice(0, -1).join(', ')} or ${String(words.at(-1))}`;

/**
 * One sentence for a setting's failed check. A value is echoed only where it is no secret: a
 * string setting's length is said, never its text.
 */
function detailOf(error: TLocalizedValidationError, schema: TSchema, written: string): string {
  const { minLength, maxLength, minimum, maximum, expects } = schema as TextOptions & Record<string, unknown>;
  switch (error.keyword) {
    case '~refine':
      return error.params.message;
    case 'enum':
      return `must be ${wordList(error.params.allowedValues)}, got "${written}"`;
    case 'minLength':
    case 'maxLength':
      return typeof maxLength === 'number'
        ? `must be ${String(minLength ?? 0)}–${maxLength} characters long`
        : `must be at least ${String(minLength)} characters, got ${written.length}`;
  }
  if (Type.IsInteger(schema)) {
    return `must be ${expects ?? 'a whole number'} from ${String(minimum)} to ${String(maximum)}, got "${written}"`;
  }
  if (Type.IsBoolean(schema)) return `must be true or false, got "${written}"`;
  return `is not valid (${error.message})`;
}

/**
 * The settings of `schema` (an object whose keys are variable names) read from `env`: each set
 * variable's text as a value of its kind, each unset one its default (or absent), all checked by
 * TypeBox. Throws a SettingError for the first variable, in the schema's order, that fails.
 */
export function readSettings<S extends TObject>(schema: S, env: Env): Static<S> {
  const names = Object.keys(schema.properties);
  const texts = new Map<string, string>();
  const given: Record<string, unknown> = {};
  for (const name of names) {
    const written = envText(env, name);
    if (written === undefined) continue;
    texts.set(name, written);
    given[name] = fromText(schema.properties[name] as TSchema, written);
  }
  const settings = Value.Default(schema, given);
  if (Value.Check(schema, settings)) return settings;
  const variableOf = (error: TLocalizedValidationError) => error.instancePath.split('/')[1] ?? '';
  const errors = Value.Errors(schema, settings).filter((error) => names.includes(variableOf(error)));
  const first = errors.sort((a, b) => names.indexOf(variableOf(a)) - names.indexOf(variableOf(b)))[0];
  if (first === undefined) throw new Error('The settings failed their check without an error to say why');
  const name = variableOf(first);
  throw new SettingError(name, detailOf(first, schema.properties[name] as TSchema, texts.get(name) ?? ''));
}
