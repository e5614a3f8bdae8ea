// Article 000 (java马踏棋盘算法, its "最终代码"): the article's Java program as it wrote it,
// and the same program line by line in Python and C, each in the two variants: as written
// (the sort counts findWay(p).size(), every knight move on the board, visited squares
// included: the static degree) and corrected (Warnsdorff's count of unvisited squares;
// nothing else changed). The syntax of the lines is code-listings.js's; the article's
// comments are in the comment fields, its own words in Chinese.

import { C } from "./a000/c.js";
import { JAVA } from "./a000/java.js";
import { PYTHON } from "./a000/python.js";

export const A000 = { java: JAVA, python: PYTHON, c: C };
