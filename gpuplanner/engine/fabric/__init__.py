"""The fabric room: the drawn topology as a graph, its routes (ECMP fields), fat-tree arrays, the fabric analysis and the cable and optics plan."""
