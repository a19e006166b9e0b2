package dev.gpugen.compat;

import java.util.List;
import java.util.Objects;

/**
 * A GCP accelerator type, the name used in {@code guest_accelerator.type} and the {@code
 * cloud.google.com/gke-accelerator} label.
 *
 * @param type the accelerator type, e.g. {@code nvidia-h100-80gb}
 * @param gpu the {@link GpuModel#name()} behind it
 * @param sources the URLs the values come from
 */
public record GcpAccelerator(String type, String gpu, List<String> sources) implements CompatRow {
  public GcpAccelerator {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(gpu, "gpu");
    sources = List.copyOf(sources);
  }

  @Override
  public String key() {
    return type;
  }
}
