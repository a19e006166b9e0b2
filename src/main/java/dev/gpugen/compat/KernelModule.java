package dev.gpugen.compat;

/** The flavour of NVIDIA kernel modules a host installs. */
public enum KernelModule {
  /** The open-source GPU kernel modules ({@code -open} packages); Turing and newer only. */
  OPEN,
  /** The proprietary kernel modules; unsupported on Blackwell and Grace. */
  PROPRIETARY
}
