package dev.gpugen.cli;

import dev.gpugen.Gpugen;
import dev.gpugen.compat.CompatTable;

/** Builds the library with gpugen's knowledge base wired in. */
final class Knowledge {
  private Knowledge() {}

  /** The one place the shipped knowledge base is loaded; everything else is handed it. */
  static Gpugen gpugen() {
    return new Gpugen(CompatTable::load);
  }
}
