// The shape of a checked-AST validator (cel-go's ASTValidator), apart from the validators themselves so
// that libraries can contribute one without importing the checker's.
import type { CheckedAst } from './ast.js';
import type { Env } from './env.js';

/** Reports problems on a checked AST; `report` locates the message at a node. */
export type AstValidator = (ast: CheckedAst, env: Env, report: (id: number, message: string) => void) => void;
