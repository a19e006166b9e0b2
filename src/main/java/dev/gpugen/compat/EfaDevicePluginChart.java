package dev.gpugen.compat;

import java.util.List;
import java.util.Objects;

/**
 * The AWS EFA device plugin chart (aws/eks-charts, aws-efa-k8s-device-plugin) at the version play
 * 03 installs, and the EC2 instance types its DaemonSet's node affinity lists: the plugin runs on
 * those types only, so a node of any other type never advertises {@code vpc.amazonaws.com/efa}.
 *
 * @param chartVersion the chart version, as Helm names it (e.g. {@code v0.5.30})
 * @param instanceTypes the chart's supportedInstanceLabels values at that version
 * @param sources the URLs the values come from (the chart's values.yaml at a commit)
 */
public record EfaDevicePluginChart(
    String chartVersion, List<String> instanceTypes, List<String> sources) implements CompatRow {
  public EfaDevicePluginChart {
    Objects.requireNonNull(chartVersion, "chartVersion");
    instanceTypes = List.copyOf(instanceTypes);
    sources = List.copyOf(sources);
    if (instanceTypes.isEmpty()) {
      throw new IllegalArgumentException("efa_device_plugin: no instance types");
    }
  }

  /** Whether the chart's DaemonSet is scheduled on nodes of {@code instanceType}. */
  public boolean schedulesOn(String instanceType) {
    return instanceTypes.contains(instanceType);
  }

  @Override
  public String key() {
    return chartVersion;
  }
}
