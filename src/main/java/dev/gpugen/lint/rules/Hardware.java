package dev.gpugen.lint.rules;

import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.compat.CompatTable;
import dev.gpugen.compat.GcpMachineType;
import dev.gpugen.compat.GpuModel;
import dev.gpugen.spec.ClusterSpec;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the compatibility table knows about one pool's machines: the EC2 instance type or GCP
 * machine type, and through it the GPU model and count. Everything is empty when the table does not
 * know the type; rules then stay quiet and {@code compat-unknown} says so.
 *
 * @param aws the EC2 instance type row (provider aws)
 * @param gcp the GCP machine type row (provider gcp)
 * @param gpu the GPU model
 * @param gpuCount GPUs per node, where known
 * @param declaredNvswitch NVSwitch as a static pool declares it (or as its model and count imply)
 */
public record Hardware(
    Optional<AwsInstanceType> aws,
    Optional<GcpMachineType> gcp,
    Optional<GpuModel> gpu,
    OptionalInt gpuCount,
    boolean declaredNvswitch) {

  public static Hardware of(ClusterSpec spec, ClusterSpec.Pool pool, CompatTable table) {
    String type = pool.instanceType();
    switch (spec.cloud().provider()) {
      case "aws" -> {
        Optional<AwsInstanceType> aws = table.awsInstance(type);
        return new Hardware(
            aws,
            Optional.empty(),
            aws.flatMap(a -> table.gpu(a.gpu())),
            aws.map(a -> OptionalInt.of(a.gpuCount())).orElse(OptionalInt.empty()),
            false);
      }
      case "gcp" -> {
        Optional<GcpMachineType> gcp = table.gcpMachine(type);
        return new Hardware(
            Optional.empty(),
            gcp,
            gcp.flatMap(m -> table.gcpAccelerator(m.accelerator()))
                .flatMap(a -> table.gpu(a.gpu())),
            gcp.map(GcpMachineType::count).orElse(OptionalInt.empty()),
            false);
      }
      default -> {
        Optional<GpuModel> gpu = pool.gpu().flatMap(g -> table.gpu(g.model()));
        boolean nvswitch =
            pool.gpu()
                .map(
                    g ->
                        g.nvswitch()
                            .orElseGet(
                                () ->
                                    gpu.map(m -> table.impliedNvswitch(m, g.count()))
                                        .orElse(false)))
                .orElse(false);
        return new Hardware(
            Optional.empty(),
            Optional.empty(),
            gpu,
            pool.gpu().map(g -> OptionalInt.of(g.count())).orElse(OptionalInt.empty()),
            nvswitch);
      }
    }
  }

  /** True only when the table says the GPUs sit on an NVSwitch fabric (unknown is not a yes). */
  public boolean nvswitch() {
    return declaredNvswitch || aws.flatMap(AwsInstanceType::nvswitch).orElse(false);
  }

  /** Network cards per node (AWS), 1 when unknown. */
  public int networkCards() {
    return aws.map(AwsInstanceType::networkCards).orElse(1);
  }
}
