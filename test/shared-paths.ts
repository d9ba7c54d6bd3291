// ../shared beside the project (the spec seeds and the corpus), wherever the checkout is.
import { fileURLToPath } from 'node:url';

export const SHARED = fileURLToPath(new URL('../../shared/', import.meta.url)).replace(/\/$/, '');
export const CORPUS = `${SHARED}/corpus`;
export const SEEDS = `${SHARED}/seeds`;
