import fc from 'fast-check';

/**
 * What the input fuzz (server/src/platform/http/input-fuzz.test.ts) reads and sends: the
 * operations of the served OpenAPI document, a sample value per JSON schema, and tables of hostile
 * values.
 */

// The OpenAPI document, as far as the fuzz reads it.

export type JsonSchema = {
  type?: string | string[];
  $ref?: string;
  const?: unknown;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  contentMediaType?: string;
};
interface Parameter {
  $ref?: string;
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: JsonSchema;
}
interface OperationObject {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
export interface OpenApiDoc {
  paths: Record<string, Record<string, OperationObject>>;
  components: { parameters: Record<string, Parameter> };
}

export type Caller = 'anonymous' | 'user' | 'operator';

export interface Operation {
  id: string;
  method: string;
  /** The documented path, `{name}` for its parameters. */
  path: string;
  /** Who gets past authentication: the caller the fuzz sends its field cases as. */
  caller: Caller;
  pathParams: string[];
  query: { name: string; required: boolean; schema: JsonSchema }[];
  headers: string[];
  json?: JsonSchema;
  form?: { fields: JsonSchema; files: string[] };
}

/** Every operation of the document, in its order. */
export function operationsOf(doc: OpenApiDoc): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const params = (op.parameters ?? []).map((p) =>
        p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!]! : p,
      );
      const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
      const caller: Caller = schemes.includes('bearer')
        ? 'user'
        : schemes.includes('operator')
          ? 'operator'
          : 'anonymous';
      const content = op.requestBody?.content ?? {};
      const multipart = content['multipart/form-data']?.schema;
      const [fields, files] = multipart?.allOf ?? [];
      return {
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        caller,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, required: p.required === true, schema: p.schema })),
        headers: params.filter((p) => p.in === 'header').map((p) => p.name),
        json: content['application/json']?.schema,
        form: fields && files ? { fields, files: Object.keys(files.properties ?? {}) } : undefined,
      };
    }),
  );
}

/** The branch of a `oneOf`/`anyOf` the sample takes (the first), and `allOf` merged. */
function flatten(schema: JsonSchema): JsonSchema {
  const one = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (one) return flatten(one);
  if (schema.allOf) {
    const parts = schema.allOf.map(flatten);
    return {
      type: 'object',
      properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})) as Record<
        string,
        JsonSchema
      >,
      required: parts.flatMap((p) => p.required ?? []),
    };
  }
  return schema;
}

/**
 * A plausible value for `schema`: consts, first enum members, strings matching their pattern and
 * lengths, numbers at their minimum. Cross-field rules (confirmations, an address per network)
 * are not in the schema, so a sample is well-formed field by field, not always accepted.
 */
export function sampleOf(schema: JsonSchema, seed = 1): unknown {
  const s = flatten(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(s.properties ?? {}).map(([k, v]) => [k, sampleOf(v, seed)]),
      );
    case 'array':
      return [];
    case 'boolean':
      return true;
    case 'integer':
    case 'number': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
      return Math.min(Math.max(min, 1), s.maximum ?? Number.MAX_SAFE_INTEGER);
    }
    case 'string': {
      if (s.pattern)
        return fc.sample(fc.stringMatching(new RegExp(s.pattern)), { seed, numRuns: 1 })[0]!;
      const length = Math.min(Math.max(s.minLength ?? 1, 6), s.maxLength ?? 6);
      return 'sample'.padEnd(length, 'x').slice(0, length);
    }
    default:
      return 'sample';
  }
}

/** The top-level fields of an object schema, by kind. */
export function fieldsOf(schema: JsonSchema): { name: string; schema: JsonSchema }[] {
  return Object.entries(flatten(schema).properties ?? {}).map(([name, s]) => ({
    name,
    schema: flatten(s),
  }));
}

// Hostile values.

/** Control, bidi and other odd characters, and texts that tempt a careless parser or query. */
export const oddTexts = [
  '\u0000',
  'a\u0000b',
  '\u0001',
  '\u001b[2J',
  '\u007f',
  '\u0085',
  '\u202e',
  'abc\u2066x\u2069',
  '\ud800',
  'a\r\nb',
  '\t',
  ' ',
  '',
  '\ufeff',
  "' OR '1'='1",
  '１２３４５６',
  '😀'.repeat(20),
  'ß'.repeat(40),
];

/** Values of the wrong type or shape for any field. */
export const wrongValues: unknown[] = [
  null,
  true,
  -1,
  1.5,
  1e308,
  2 ** 53 + 2,
  [],
  { a: { b: 1 } },
  '1e999',
  '99999999999999999999',
];

/** For number fields: JSON number tokens JSON.stringify never writes, and numbers as text. */
export const rawNumbers = [
  '1e999',
  '-1e999',
  '1e-999',
  '-0',
  '0.1e1',
  '123456789012345678901234567890',
];
export const oddNumbers: unknown[] = ['NaN', 'Infinity', '-0', '0x10', ' 1 ', 0, -0.5, -1e308];

/** Path parameter and query values (already %-encoded where they are to arrive intact). */
export const oddParams = [
  'abc',
  '1e999',
  '-1',
  '0',
  '1.5',
  '99999999999999999999',
  'NaN',
  '0x1F',
  '1%20',
  '%00',
  '1%00',
  '%01',
  '%E2%80%AE',
  '%ED%A0%80',
  '%E0%A4%A',
  '%',
  '..%2F..%2Fetc%2Fpasswd',
  '%27%20OR%201%3D1',
  'a'.repeat(3000),
];

/** `count` nested arrays (or objects) around an empty one. */
export const deeplyNested = (count: number, kind: 'array' | 'object') =>
  kind === 'array'
    ? '['.repeat(count) + ']'.repeat(count)
    : '{"a":'.repeat(count) + '{}' + '}'.repeat(count);
