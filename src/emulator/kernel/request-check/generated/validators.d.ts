/**
 * Types of validators.js, which .ci/request-validators.mjs generates at build time from the API
 * description (it is not committed; this file is). See ../index.ts.
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
export interface ParameterValidator {
  validate: GeneratedValidator;
  /** The parameters' names as the description spells them. */
  names: string[];
  /** Those whose value is a list (a repeated query parameter). */
  arrays: string[];
}

export interface BodyValidator {
  /** The JSON body's validator; absent when the body is not JSON (a multipart upload). */
  validate?: GeneratedValidator;
  required: boolean;
  /** The content types of a body that is not JSON. */
  contentTypes?: string[];
}

export interface OperationValidators {
  path?: ParameterValidator;
  query?: ParameterValidator;
  header?: ParameterValidator;
  body?: BodyValidator;
}

/** Every operation of the description, by `METHOD /path/{template}`. */
export declare const OPERATIONS: Record<string, OperationValidators>;
