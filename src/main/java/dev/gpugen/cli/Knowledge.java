package dev.gpugen.cli;

import dev.gpugen.Gpugen;

/** Builds the library with gpugen's knowledge base wired in. */
final class Knowledge {
  private Knowledge() {}

  static Gpugen gpugen() {
    return new Gpugen(
        type -> type.startsWith("p4d.") || type.startsWith("p4de.") || type.startsWith("p5"));
  }
}
