/**
 * The error a call throws (or a promise rejects with), checked to be of the expected class, so a test
 * can go on to assert its fields. Fails the test when nothing is thrown: a check that cannot pass
 * by accident.
 */
import { expect } from 'vitest';

type ErrorClass<T extends Error> = abstract new (...args: never[]) => T;

export function caught<T extends Error>(fn: () => unknown, type: ErrorClass<T>): T {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error, `expected ${type.name}`).toBeInstanceOf(type);
  return error as T;
}

export async function rejected<T extends Error>(promise: Promise<unknown>, type: ErrorClass<T>): Promise<T> {
  let error: unknown;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  expect(error, `expected ${type.name}`).toBeInstanceOf(type);
  return error as T;
}
