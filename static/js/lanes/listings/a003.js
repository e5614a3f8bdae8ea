// Article 003 (马踏棋盘算法, horse.c): the article's C program as it wrote it, with next()'s
// switch, the recursive traverse (方法一, ordering a003-c) and the loop-based traverse_chess
// (方法二, a003-c-loop), and the same program line by line in Java and Python. Its
// corrected variant (a003-c-stack) is the exercise's 编制非递归程序: traverse_chess still
// calls itself, so 方法三 searches with an explicit stack array instead (copied from
// tests/articles/programs/a003_stack.c), with the same events as traverse. Each ordering
// lights its own function (for=). The syntax of the lines is code-listings.js's.

import { C } from "./a003/c.js";
import { JAVA } from "./a003/java.js";
import { PYTHON } from "./a003/python.js";

export const A003 = { c: C, java: JAVA, python: PYTHON };
