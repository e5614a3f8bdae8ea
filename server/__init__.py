"""Knight's Tour Studio (马踏棋盘): play the knight's tour, watch the algorithms."""
