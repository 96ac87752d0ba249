/**
 * Types of operations.js and of the opN.cjs modules it names, which .ci/request-validators.mjs
 * generates at build time from the API description (they are not committed; this file is). See
 * ../index.ts and ../load.ts.
 */

/** One failed rule, as Ajv reports it (messages are made by ../refusal.ts, not by Ajv). */
export interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
}

export type GeneratedValidator = ((data: unknown) => boolean) & { errors?: SchemaError[] | null };

/** Path parameters, query or headers of an operation: one object of them, checked at once. */
export interface ParameterFacts {
  /** The parameters' names as the description spells them. */
  names: string[];
  /** Those whose value is a list (a repeated query parameter). */
  arrays: string[];
}

export interface BodyFacts {
  /** Whether the body is JSON, checked by the module's `body` validator (not: a multipart upload). */
  json: boolean;
  required: boolean;
  /** The content types of a body that is not JSON. */
  contentTypes?: string[];
  /**
   * A multipart form with text parts, checked by the module's `form` validator like a JSON body;
   * `files`: the parts the description declares as files (`format: binary`).
   */
  form?: { files: string[] };
}

export interface OperationFacts {
  path?: ParameterFacts;
  query?: ParameterFacts;
  header?: ParameterFacts;
  body?: BodyFacts;
  /** The module beside operations.js holding the operation's validators (`op12.cjs`); none when there is nothing to check. */
  module?: string;
}

/** What an operation's module returns: one validator for each part the operation declares. */
export interface OperationValidators {
  path?: GeneratedValidator;
  query?: GeneratedValidator;
  header?: GeneratedValidator;
  body?: GeneratedValidator;
  form?: GeneratedValidator;
}

/**
 * An opN.cjs module: a function of the format checks and the runtime helper it calls, returning the
 * validators of each operation it holds (operations sharing a large schema share a module), by
 * operation (`METHOD /path/{template}`).
 */
export type ValidatorModule = (
  formats: Record<string, (value: string) => boolean>,
  characterCount: (text: string) => number,
) => Record<string, OperationValidators>;

/** Every operation of the description, by `METHOD /path/{template}`. */
export declare const OPERATIONS: Record<string, OperationFacts>;
