package dev.gpugen.compat;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A GCP machine type (or a family of them) and the accelerators it comes with.
 *
 * @param name the machine type, e.g. {@code a3-highgpu-8g}, or a family pattern ending in {@code
 *     *}, e.g. {@code g2-standard-*}
 * @param accelerator the {@link GcpAccelerator#type()} it must be given
 * @param count the number of accelerators; empty for a family whose sizes differ
 * @param verified false where the sources mark the row as unconfirmed
 * @param sources the URLs the values come from
 */
public record GcpMachineType(
    String name, String accelerator, OptionalInt count, boolean verified, List<String> sources)
    implements CompatRow {
  public GcpMachineType {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(accelerator, "accelerator");
    Objects.requireNonNull(count, "count");
    sources = List.copyOf(sources);
  }

  /** Whether this row stands for a family of machine types ({@code name} ends in {@code *}). */
  public boolean isPattern() {
    return name.endsWith("*");
  }

  /** Whether {@code machineType} is this row's machine type or belongs to its family. */
  public boolean matches(String machineType) {
    return isPattern()
        ? machineType.startsWith(name.substring(0, name.length() - 1))
        : machineType.equals(name);
  }

  @Override
  public String key() {
    return name;
  }
}
