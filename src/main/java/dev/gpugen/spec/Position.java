package dev.gpugen.spec;

/** A 1-based line and column in a spec file, as compilers print them. */
public record Position(int line, int column) implements Comparable<Position> {
  public static final Position START = new Position(1, 1);

  public Position {
    if (line < 1 || column < 1) {
      throw new IllegalArgumentException("positions are 1-based: " + line + ":" + column);
    }
  }

  @Override
  public int compareTo(Position o) {
    return line != o.line ? Integer.compare(line, o.line) : Integer.compare(column, o.column);
  }

  // Written out, with the value the generated ones compute: every spec and lint run hashes
  // positions, and a record's generated equals and hashCode are linked through method handles
  // the first time they run, which a short process pays for in full.
  @Override
  public boolean equals(Object o) {
    return o instanceof Position p && p.line == line && p.column == column;
  }

  @Override
  public int hashCode() {
    return 31 * Integer.hashCode(line) + Integer.hashCode(column);
  }
}
