package dev.gpugen.compat;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * An EC2 accelerated-computing instance type: its GPUs and network (EC2 instance-type tables, EFA
 * guide, aws-ofi-nccl platform table).
 *
 * @param name the instance type, e.g. {@code p5.48xlarge}
 * @param gpu the {@link GpuModel#name()} of its GPUs
 * @param gpuCount GPUs per instance
 * @param vcpus vCPUs per instance, what EC2's vCPU quotas count
 * @param gpuMemoryGib memory per GPU, GiB
 * @param networkGbps the maximum network bandwidth, Gbit/s
 * @param networkCards network cards per instance
 * @param maxEnis the maximum number of network interfaces, where the sources give it
 * @param efa whether the type supports EFA
 * @param nvswitch whether the GPUs sit on an NVSwitch fabric (which needs Fabric Manager); empty
 *     where the sources do not say
 * @param gdrRequired whether aws-ofi-nccl marks GPUDirect RDMA as required on this type
 * @param minStack the minimum EFA software stack for this type, where the sources give one
 * @param cpu the host CPU architecture: {@code x86_64}, or {@code arm64} (Graviton, Grace)
 * @param sources the URLs the values come from
 */
public record AwsInstanceType(
    String name,
    String gpu,
    int gpuCount,
    int vcpus,
    int gpuMemoryGib,
    int networkGbps,
    int networkCards,
    OptionalInt maxEnis,
    boolean efa,
    Optional<Boolean> nvswitch,
    boolean gdrRequired,
    Optional<MinStack> minStack,
    String cpu,
    List<String> sources)
    implements CompatRow {

  /**
   * Minimum software versions for EFA on an instance type (aws-ofi-nccl EFA presets).
   *
   * @param cuda the CUDA toolkit
   * @param nccl NCCL
   * @param awsOfiNccl the aws-ofi-nccl plugin
   * @param efaInstaller the EFA installer
   */
  public record MinStack(Version cuda, Version nccl, Version awsOfiNccl, Version efaInstaller) {
    public MinStack {
      Objects.requireNonNull(cuda, "cuda");
      Objects.requireNonNull(nccl, "nccl");
      Objects.requireNonNull(awsOfiNccl, "awsOfiNccl");
      Objects.requireNonNull(efaInstaller, "efaInstaller");
    }
  }

  public AwsInstanceType {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(gpu, "gpu");
    Objects.requireNonNull(maxEnis, "maxEnis");
    Objects.requireNonNull(nvswitch, "nvswitch");
    Objects.requireNonNull(minStack, "minStack");
    if (!List.of("x86_64", "arm64").contains(cpu)) {
      throw new IllegalArgumentException(name + ": cpu must be x86_64 or arm64, not " + cpu);
    }
    sources = List.copyOf(sources);
    if (gpuCount < 1 || vcpus < 1 || gpuMemoryGib < 1 || networkGbps < 1 || networkCards < 1) {
      throw new IllegalArgumentException(
          name + ": GPU count, vCPUs, GPU memory, bandwidth and network cards must be positive");
    }
  }

  /**
   * The number of EFA interfaces to request for full bandwidth: one per network card when the type
   * supports EFA, else 0. (Card 0, device 0 must stay an ENA interface; the EFA on card 0 is an
   * additional device.)
   */
  public int efaInterfaces() {
    return efa ? networkCards : 0;
  }

  /** Whether the host CPUs are Arm (Graviton, Grace). */
  public boolean arm64() {
    return cpu.equals("arm64");
  }

  /** GPU memory of the whole instance, GiB. */
  public int totalGpuMemoryGib() {
    return gpuCount * gpuMemoryGib;
  }

  @Override
  public String key() {
    return name;
  }
}
