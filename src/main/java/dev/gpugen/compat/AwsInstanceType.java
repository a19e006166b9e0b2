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
 * @param memoryGib the instance's own memory (RAM), GiB, where the sources give it
 * @param networkGbps the maximum network bandwidth, Gbit/s
 * @param networkCards network cards per instance
 * @param maxEnis the maximum number of network interfaces, where the sources give it
 * @param efa whether the type supports EFA
 * @param efaOnCard0 whether network card 0 supports EFA too (false on P6-B300, whose card 0 is ENA
 *     only and whose EFA interfaces are on the other cards)
 * @param nvswitch whether the GPUs sit on an NVSwitch fabric (which needs Fabric Manager); empty
 *     where the sources do not say
 * @param gdrRequired whether aws-ofi-nccl marks GPUDirect RDMA as required on this type
 * @param minStack the minimum EFA software stack for this type, where the sources give one
 * @param cpu the host CPU architecture: {@code x86_64}, or {@code arm64} (Graviton, Grace)
 * @param instanceStore the NVMe instance-store volumes the type comes with
 * @param sources the URLs the values come from
 */
public record AwsInstanceType(
    String name,
    String gpu,
    int gpuCount,
    int vcpus,
    int gpuMemoryGib,
    OptionalInt memoryGib,
    int networkGbps,
    int networkCards,
    OptionalInt maxEnis,
    boolean efa,
    boolean efaOnCard0,
    Optional<Boolean> nvswitch,
    boolean gdrRequired,
    Optional<MinStack> minStack,
    String cpu,
    InstanceStore instanceStore,
    List<String> sources)
    implements CompatRow {

  /**
   * The NVMe instance-store volumes of an instance type (EC2 instance store specifications).
   *
   * @param volumes how many; 0 where the type has none (EBS only)
   * @param sizeGb the size of each, GB; 0 without volumes
   */
  public record InstanceStore(int volumes, int sizeGb) {
    public InstanceStore {
      if (volumes < 0 || sizeGb < 0 || (volumes == 0) != (sizeGb == 0)) {
        throw new IllegalArgumentException(
            "instance store: volumes and size must both be positive, or both 0");
      }
    }

    /** Whether the type has any instance-store volume. */
    public boolean present() {
      return volumes > 0;
    }
  }

  /**
   * One network interface of a launch: the network card it is on (device index 0 on that card) and
   * its EC2 interface type.
   *
   * @param card the network card index
   * @param type {@code interface} (ENA only), {@code efa} (EFA with ENA) or {@code efa-only}
   */
  public record NetworkInterface(int card, String type) {
    public NetworkInterface {
      if (!List.of("interface", "efa", "efa-only").contains(type)) {
        throw new IllegalArgumentException("interface type " + type);
      }
    }
  }

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
    Objects.requireNonNull(memoryGib, "memoryGib");
    Objects.requireNonNull(maxEnis, "maxEnis");
    Objects.requireNonNull(nvswitch, "nvswitch");
    Objects.requireNonNull(minStack, "minStack");
    Objects.requireNonNull(instanceStore, "instanceStore");
    if (!efa && !efaOnCard0) {
      throw new IllegalArgumentException(name + ": efa_card0 applies to EFA types only");
    }
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
   * The number of EFA interfaces to request for full bandwidth: one per network card that supports
   * EFA when the type does, else 0.
   */
  public int efaInterfaces() {
    return (int)
        networkInterfaces(true).stream().filter(i -> !i.type().equals("interface")).count();
  }

  /**
   * The network interfaces of a node, one per card at device index 0: with {@code efaFabric} and an
   * EFA type, card 0 carries the primary interface, an EFA with ENA where card 0 supports EFA and
   * an ENA interface where it does not (P6-B300), and every other card an EFA-only interface (EC2
   * user guide, "Maximize network bandwidth on Amazon EC2 instances with multiple network cards");
   * otherwise the primary ENA interface alone.
   */
  public List<NetworkInterface> networkInterfaces(boolean efaFabric) {
    if (!efa || !efaFabric) {
      return List.of(new NetworkInterface(0, "interface"));
    }
    java.util.ArrayList<NetworkInterface> out = new java.util.ArrayList<>();
    out.add(new NetworkInterface(0, efaOnCard0 ? "efa" : "interface"));
    for (int card = 1; card < networkCards; card++) {
      out.add(new NetworkInterface(card, "efa-only"));
    }
    return List.copyOf(out);
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
