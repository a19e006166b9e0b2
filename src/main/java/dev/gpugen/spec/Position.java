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
}
