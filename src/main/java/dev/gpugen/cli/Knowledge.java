package dev.gpugen.cli;

import dev.gpugen.Gpugen;
import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.compat.CompatTable;

/** Builds the library with gpugen's knowledge base wired in. */
final class Knowledge {
  private Knowledge() {}

  static Gpugen gpugen() {
    CompatTable table = CompatTable.load();
    return new Gpugen(type -> table.awsInstance(type).map(AwsInstanceType::efa).orElse(false));
  }
}
