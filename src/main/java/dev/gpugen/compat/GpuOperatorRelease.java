package dev.gpugen.compat;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * An NVIDIA GPU Operator release: the component versions its chart installs by default (values.yaml
 * at the tag) and the other drivers its release notes list.
 *
 * @param version the chart version, e.g. {@code v25.10.0}
 * @param driver the default driver version
 * @param alsoDrivers other exact driver versions the release notes list
 * @param alsoBranches branches the release notes list without an exact version (e.g. 535 for
 *     "535.x")
 * @param containerToolkit the default NVIDIA Container Toolkit version
 * @param devicePlugin the default k8s-device-plugin (and GFD) version
 * @param dcgm the tag of the standalone DCGM host engine image ({@code dcgm.version}, in {@value
 *     #DCGM_IMAGE}), where known
 * @param dcgmExporter the default DCGM exporter image tag, e.g. {@code 4.4.1-4.6.0}, where known
 * @param nfd the default Node Feature Discovery version, where known
 * @param cdiDefault whether {@code cdi.enabled} defaults to true
 * @param note a caveat for reviewers, if any
 * @param sources the URLs the values come from
 */
public record GpuOperatorRelease(
    Version version,
    Version driver,
    List<Version> alsoDrivers,
    List<Integer> alsoBranches,
    Version containerToolkit,
    Version devicePlugin,
    Optional<String> dcgm,
    Optional<String> dcgmExporter,
    Optional<Version> nfd,
    boolean cdiDefault,
    Optional<String> note,
    List<String> sources)
    implements CompatRow {
  /**
   * The chart's DCGM image without its tag: {@code dcgm.repository}/{@code dcgm.image} in
   * deployments/gpu-operator/values.yaml of every release the table lists.
   */
  public static final String DCGM_IMAGE = "nvcr.io/nvidia/cloud-native/dcgm";

  public GpuOperatorRelease {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(driver, "driver");
    alsoDrivers = List.copyOf(alsoDrivers);
    alsoBranches = List.copyOf(alsoBranches);
    Objects.requireNonNull(containerToolkit, "containerToolkit");
    Objects.requireNonNull(devicePlugin, "devicePlugin");
    Objects.requireNonNull(dcgm, "dcgm");
    Objects.requireNonNull(dcgmExporter, "dcgmExporter");
    Objects.requireNonNull(nfd, "nfd");
    Objects.requireNonNull(note, "note");
    sources = List.copyOf(sources);
  }

  /**
   * The driver branch numbers the release names (default driver, other drivers, other branches),
   * ascending, e.g. {@code [535, 570, 580]} for v25.10.0. Not exhaustive: only what the sources
   * list.
   */
  public List<Integer> supportedBranches() {
    return Stream.concat(
            Stream.concat(Stream.of(driver), alsoDrivers.stream()).map(Version::major),
            alsoBranches.stream())
        .distinct()
        .sorted()
        .toList();
  }

  /** The DCGM host engine image the release runs ({@code dcgm.enabled}), where known. */
  public Optional<String> dcgmImage() {
    return dcgm.map(tag -> DCGM_IMAGE + ":" + tag);
  }

  @Override
  public String key() {
    return version.toString();
  }
}
