package dev.gpugen.lint.rules.sys;

import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.Severity;
import java.util.OptionalInt;

/** Huge pages reserved at boot that the instance's memory cannot hold, or barely. */
public final class SysHugepagesExceedMemory extends PoolRule {
  /** vm.nr_hugepages counts pages of the default huge page size, 2 MiB on x86_64 and arm64 (4K). */
  static final long PAGE_MIB = 2;

  /** The share of memory beyond which nothing useful is left for the rest of the node. */
  static final double MAX_SHARE = 0.9;

  public SysHugepagesExceedMemory() {
    super(
        "sys-hugepages-exceed-memory",
        Severity.ERROR,
        "tuning.hugepages reserves more memory than the instance type has, or nearly all of it",
        "tuning.hugepages sets vm.nr_hugepages, 2 MiB pages the kernel takes from memory at boot"
            + " and keeps for programs that ask for huge pages. Pages the memory cannot hold are"
            + " not an error to the kernel: it reserves what it can and leaves the node with"
            + " nothing for the kernel, kubelet, containerd, the NVIDIA driver and every process"
            + " that does not use huge pages, so the node fails at boot or under the first job."
            + " gpugen knows each EC2 instance type's memory (compat.yaml, from AWS's"
            + " accelerated-computing specifications) and refuses a reservation of more than 90%"
            + " of it [derived margin]. Lower tuning.hugepages, or remove it: CUDA and NCCL do not"
            + " need HugeTLB pages. Sources:"
            + " https://docs.kernel.org/admin-guide/mm/hugetlbpage.html ,"
            + " https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (p.pool().tuning().hugepages().isEmpty()) {
      return;
    }
    OptionalInt memory =
        p.hardware().aws().map(AwsInstanceType::memoryGib).orElse(OptionalInt.empty());
    if (memory.isEmpty()) {
      return; // a static host, a GCP machine or a type whose memory the table does not give
    }
    long pages = p.pool().tuning().hugepages().get();
    long reservedMib = pages * PAGE_MIB;
    long memoryMib = memory.getAsInt() * 1024L;
    if (reservedMib > memoryMib * MAX_SHARE) {
      findings.report(
          p.path("tuning", "hugepages"),
          p.describe()
              + ": tuning.hugepages "
              + pages
              + " reserves "
              + gib(reservedMib)
              + " GiB of 2 MiB pages, and the instance has "
              + memory.getAsInt()
              + " GiB of memory: "
              + (reservedMib >= memoryMib
                  ? "more than it has"
                  : "over 90% of it, leaving too little for the rest of the node"),
          "set tuning.hugepages to at most "
              + (long) (memoryMib * MAX_SHARE / PAGE_MIB)
              + " (90% of "
              + memory.getAsInt()
              + " GiB), or remove it");
    }
  }

  private static String gib(long mib) {
    return mib % 1024 == 0
        ? Long.toString(mib / 1024)
        : String.format(java.util.Locale.ROOT, "%.1f", mib / 1024.0);
  }
}
