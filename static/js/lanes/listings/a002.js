// Article 002 (马踏棋盘算法, its "最终代码"): the article's Java program as it wrote it, and
// the same program line by line in Python and C, each in the two variants: as written (the
// sort compares next(o).size(), every knight move on the board, visited squares included:
// the static degree) and corrected (Warnsdorff's count of unvisited squares; nothing else
// changed). The syntax of the lines is code-listings.js's.

import { C } from "./a002/c.js";
import { JAVA } from "./a002/java.js";
import { PYTHON } from "./a002/python.js";

export const A002 = { java: JAVA, python: PYTHON, c: C };
