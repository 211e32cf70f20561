// rjsf's validator without ajv. ajv compiles every schema into a function with `new Function`, which
// the page's Content-Security-Policy (`script-src 'self'`, no eval) refuses: each refusal was a console
// error and a CSP report, and every check answered "invalid". The editor never shows rjsf's own
// validation (the server's findings, translated, are the one source), so validating here reports
// nothing, and `isValid` answers only what rjsf asks of the forms we give it: which `const` of a choice a
// value is (prepareSchema turns enums into a `oneOf` of consts and leaves no other alternatives or
// conditions in a form's schema).
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';

/** Whether `value` matches `schema`, for the keywords a prepared form's choices use; a schema with any
 * other keyword that constrains (a pattern, an alternative) is answered "no", never guessed. */
export function matches(schema: unknown, value: unknown): boolean {
  if (typeof schema === 'boolean') return schema;
  if (typeof schema !== 'object' || schema === null) return false;
  const s = schema as Record<string, unknown>;
  for (const key of Object.keys(s)) if (!KNOWN.has(key)) return false;
  if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(value)) return false;
  if (Array.isArray(s.enum) && !s.enum.some((v) => JSON.stringify(v) === JSON.stringify(value))) return false;
  if (s.type !== undefined && !typed(s.type, value)) return false;
  if (Array.isArray(s.required) || s.properties) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const object = value as Record<string, unknown>;
    if (Array.isArray(s.required) && !s.required.every((name) => String(name) in object)) return false;
    const properties = (s.properties ?? {}) as Record<string, unknown>;
    for (const [name, inner] of Object.entries(properties))
      if (name in object && !matches(inner, object[name])) return false;
  }
  return true;
}

// Words that say what a value is; `title`, `description` and `default` constrain nothing.
const KNOWN = new Set(['const', 'enum', 'type', 'required', 'properties', 'title', 'description', 'default']);

function typed(type: unknown, value: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  return types.some((name) => {
    switch (name) {
      case 'string':
        return typeof value === 'string';
      case 'number':
        return typeof value === 'number';
      case 'integer':
        return Number.isInteger(value);
      case 'boolean':
        return typeof value === 'boolean';
      case 'null':
        return value === null;
      case 'array':
        return Array.isArray(value);
      case 'object':
        return typeof value === 'object' && value !== null && !Array.isArray(value);
      default:
        return false;
    }
  });
}

export const formValidator: ValidatorType<unknown, RJSFSchema> = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  isValid: (schema, formData) => matches(schema, formData),
  rawValidation: () => ({ errors: [] }),
};
