package dev.gpugen.compat;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A GPU model and what it needs from the driver stack (CUDA architecture matrix, open GPU kernel
 * module tables, kernel-module guide).
 *
 * @param name the canonical model name, e.g. {@code H100}
 * @param aliases other names the same row answers to, e.g. {@code A100-80GB}
 * @param architecture the GPU architecture
 * @param computeCapability the CUDA compute capability, e.g. {@code 9.0}, where the sources give it
 * @param minDriver the oldest driver that supports the GPU; below it gpugen reports an error
 * @param minCuda the first CUDA toolkit for the architecture, where known
 * @param kernelModules which kernel-module flavours the GPU can run
 * @param maxDriverBranch the last driver branch that supports the GPU (e.g. 580), where support has
 *     ended
 * @param maxCudaMajor the last CUDA major that supports the GPU (e.g. 12), where support has ended
 * @param recommendedMinDriverBranch the branch the sources recommend at least (e.g. 535), if any
 * @param gpuOperatorMinDriverContainer the oldest GPU Operator driver container for the GPU, if the
 *     operator documents one
 * @param nvswitchBoards the model names (the row's name or aliases) that say a host's GPUs sit on
 *     an NVSwitch baseboard (HGX/SXM 8-GPU), for bare metal where no instance type says it
 * @param otherBoards the model names that say a board without NVSwitch (PCIe cards, NVL bridges)
 * @param referenceHcaPorts the compute-fabric HCA ports of NVIDIA's reference system for this GPU
 *     (DGX), where it has one
 * @param referenceLinkGbps the link rate of those ports, Gb/s
 * @param note a caveat for reviewers, if any
 * @param sources the URLs the values come from
 */
public record GpuModel(
    String name,
    List<String> aliases,
    Architecture architecture,
    Optional<Version> computeCapability,
    Optional<Version> minDriver,
    Optional<Version> minCuda,
    KernelModules kernelModules,
    OptionalInt maxDriverBranch,
    OptionalInt maxCudaMajor,
    OptionalInt recommendedMinDriverBranch,
    Optional<Version> gpuOperatorMinDriverContainer,
    List<String> nvswitchBoards,
    List<String> otherBoards,
    OptionalInt referenceHcaPorts,
    OptionalInt referenceLinkGbps,
    Optional<String> note,
    List<String> sources)
    implements CompatRow {

  /** NVIDIA GPU architectures gpugen knows, oldest first. */
  public enum Architecture {
    PASCAL,
    VOLTA,
    TURING,
    AMPERE,
    ADA,
    HOPPER,
    BLACKWELL
  }

  /** Which kernel-module flavours a GPU supports. */
  public enum KernelModules {
    /** Blackwell and Grace: the proprietary modules are unsupported. */
    OPEN_ONLY,
    /** Maxwell, Pascal and Volta: the open modules need GSP (Turing and newer). */
    PROPRIETARY_ONLY,
    /** Turing and newer before Blackwell: either flavour works. */
    OPEN_OR_PROPRIETARY;

    /** Whether a host may install {@code flavour} for this GPU. */
    public boolean allows(KernelModule flavour) {
      return switch (this) {
        case OPEN_ONLY -> flavour == KernelModule.OPEN;
        case PROPRIETARY_ONLY -> flavour == KernelModule.PROPRIETARY;
        case OPEN_OR_PROPRIETARY -> true;
      };
    }
  }

  public GpuModel {
    Objects.requireNonNull(name, "name");
    aliases = List.copyOf(aliases);
    Objects.requireNonNull(architecture, "architecture");
    Objects.requireNonNull(computeCapability, "computeCapability");
    Objects.requireNonNull(minDriver, "minDriver");
    Objects.requireNonNull(minCuda, "minCuda");
    Objects.requireNonNull(kernelModules, "kernelModules");
    Objects.requireNonNull(maxDriverBranch, "maxDriverBranch");
    Objects.requireNonNull(maxCudaMajor, "maxCudaMajor");
    Objects.requireNonNull(recommendedMinDriverBranch, "recommendedMinDriverBranch");
    Objects.requireNonNull(gpuOperatorMinDriverContainer, "gpuOperatorMinDriverContainer");
    nvswitchBoards = List.copyOf(nvswitchBoards);
    otherBoards = List.copyOf(otherBoards);
    Objects.requireNonNull(referenceHcaPorts, "referenceHcaPorts");
    Objects.requireNonNull(referenceLinkGbps, "referenceLinkGbps");
    Objects.requireNonNull(note, "note");
    sources = List.copyOf(sources);
  }

  @Override
  public String key() {
    return name;
  }
}
