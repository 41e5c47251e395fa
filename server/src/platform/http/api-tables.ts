import { z } from 'zod';
import type { FilePart } from '@shared/contract/endpoint';
import { areasOf, errorCodesOf, partTakes, rolesReaching } from './openapi';
import type { Answer, Declared } from './route';

/**
 * The endpoint tables of docs/API.md, from the declared routes (route.ts), the same objects the
 * OpenAPI document is generated from: one table per tag, a row per route with who may call, its
 * inputs, and its answers and error codes by status. A test fails when the committed tables
 * differ (api-docs.test.ts; `npm run docs:api` writes them).
 */
export function endpointTables(routes: readonly Declared[]): string {
  const tags = [...new Set(routes.map((r) => r.tag))];
  return tags
    .map((tag) =>
      [
        `### ${tag}`,
        '',
        '| call | who | input | answers |',
        '|---|---|---|---|',
        ...routes.filter((r) => r.tag === tag).map(row),
      ].join('\n'),
    )
    .join('\n\n');
}

function row(route: Declared): string {
  const call = `\`${route.method.toUpperCase()} ${route.documentPath.replace(/\{(\w+)\}/g, ':$1')}\``;
  const cells = [call, who(route), input(route), answers(route)];
  return `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
}

function who(route: Declared): string {
  const caller = route.auth?.who;
  const areas = areasOf(route);
  const base =
    caller === 'operator'
      ? `operator${areas ? ` (${rolesReaching(areas).join(', ')})` : ''}`
      : caller === 'userOrOperator'
        ? 'user or operator'
        : (caller ?? 'anyone');
  return route.idempotent ? `${base}, idempotent` : base;
}

function input(route: Declared): string {
  const parts = [
    route.query && `query ${fields(route.query)}`,
    route.body && `body ${fields(route.body)}`,
    route.form &&
      `form ${fields(route.form.fields)} + ${route.form.files.map(filePart).join(', ')}`,
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : '–';
}

/** `screenshot? (JPEG, PNG or WebP, at most 5 MB)`; `[≤n]` after a part that takes a list. */
function filePart(part: FilePart): string {
  return `${part.name}${part.count > 1 ? `[≤${part.count}]` : ''}${part.required ? '' : '?'} (${partTakes(part)})`;
}

function answers(route: Declared): string {
  const ok = Object.entries(route.responses).map(([status, answer]) =>
    [status, shape(answer)].filter(Boolean).join(' '),
  );
  const failed = [...errorCodesOf(route)]
    .sort(([a], [b]) => a - b)
    .map(([status, codes]) => `${status} ${[...codes].map((c) => `\`${c}\``).join(' / ')}`);
  return [...ok, ...failed].join(' · ');
}

/** An answer's shape by name: its schema's id, `[Item]` for a list, else its fields. */
function shape(answer: Answer | undefined): string {
  if (answer === null || answer === undefined) return '';
  if ('media' in answer) return answer.media;
  return `\`${named(answer)}\``;
}

function named(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (id) return id;
  if (schema instanceof z.ZodArray) return `[${named(schema.element as z.ZodType)}]`;
  return fields(schema);
}

/**
 * An input's or answer's fields, `?` after the optional ones and a list's items by name; a named
 * schema by its name; each form of a union, `or` between them.
 */
function fields(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (id) return id;
  if (schema instanceof z.ZodPipe) return fields(schema.def.in as z.ZodType);
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).map(fields).join(' or ');
  if (!(schema instanceof z.ZodObject)) return schema.def.type;
  const keys = Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, field]) => {
    const optional = field.safeParse(undefined).success ? '?' : '';
    const list = field instanceof z.ZodArray ? `: ${named(field)}` : '';
    return `${key}${optional}${list}`;
  });
  return `{ ${keys.join(', ')} }`;
}
