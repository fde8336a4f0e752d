/** The part of a JSON Schema this walk reads: a field's type, an object's fields, an array's items. */
interface SchemaNode {
  readonly type?: unknown;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly additionalProperties?: unknown;
  readonly items?: SchemaNode;
}

const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * A YAML value is a string wherever a `${VAR}` stood (`port: ${PORT}`), since only a string can hold one;
 * a field that wants a number or a boolean takes it converted, as Spring applications (the original
 * design's) do with `${PORT:8080}`: `"8080"` where an integer is wanted is 8080, `"true"` / `"false"`
 * where a boolean is. Anything else stays as it is, for validation to refuse by the field's name.
 */
export function withScalarFieldsConverted(value: unknown, schemaOfValue: object | undefined): unknown {
  const schema = schemaOfValue as SchemaNode | undefined;
  if (schema === undefined) return value;
  if (typeof value === 'string') return converted(value, schema.type);
  if (Array.isArray(value)) return value.map((item) => withScalarFieldsConverted(item, schema.items));
  if (typeof value === 'object' && value !== null) {
    const rest = typeof schema.additionalProperties === 'object' ? (schema.additionalProperties as SchemaNode) : undefined;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, withScalarFieldsConverted(item, schema.properties?.[key] ?? rest)]),
    );
  }
  return value;
}

function converted(text: string, type: unknown): unknown {
  const trimmed = text.trim();
  if ((type === 'integer' || type === 'number') && NUMBER.test(trimmed)) return Number(trimmed);
  if (type === 'boolean' && /^(true|false)$/i.test(trimmed)) return trimmed.toLowerCase() === 'true';
  return text;
}
