package dev.gpugen.spec.yaml;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The commented starter spec {@code gpugen init} writes: one pool of a GPU's usual AWS instance
 * type, the software versions gpugen's tables were reviewed with, and comments that say what to
 * change. The text is a resource with {@code {{key}}} slots, so it reads as the YAML it becomes.
 */
public final class StarterSpec {
  /** The GPUs {@code gpugen init --gpu} offers, each with the instance type it starts from. */
  public enum Gpu {
    h100(
        "H100",
        "p5.48xlarge",
        "8x H100 80 GB with NVSwitch, 32 EFA network cards",
        "525.85.12",
        320,
        "about 80% of 3200 Gbps of EFA (400 GB/s) per node"),
    h200(
        "H200",
        "p5en.48xlarge",
        "8x H200 141 GB with NVSwitch, 16 EFA network cards",
        "550.90.07",
        320,
        "about 80% of 3200 Gbps of EFA (400 GB/s) per node"),
    b200(
        "B200",
        "p6-b200.48xlarge",
        "8x B200 179 GB with NVSwitch, 8 EFA network cards",
        "570.86.15",
        320,
        "about 80% of 3200 Gbps of EFA (400 GB/s) per node"),
    a100(
        "A100",
        "p4d.24xlarge",
        "8x A100 40 GB with NVSwitch, 4 EFA network cards",
        "450.80.02",
        40,
        "about 80% of 400 Gbps of EFA (50 GB/s) per node"),
    l4("L4", "g6.48xlarge", "8x L4 24 GB on PCIe", "525.105.17", 0, "");

    final String model;
    final String instanceType;
    final String hardware;
    final String driverFloor;
    final int minBusBandwidthGBps;
    final String bandwidthNote;

    Gpu(
        String model,
        String instanceType,
        String hardware,
        String driverFloor,
        int minBusBandwidthGBps,
        String bandwidthNote) {
      this.model = model;
      this.instanceType = instanceType;
      this.hardware = hardware;
      this.driverFloor = driverFloor;
      this.minBusBandwidthGBps = minBusBandwidthGBps;
      this.bandwidthNote = bandwidthNote;
    }

    /** Training GPUs get a multi-node EFA cluster; the L4 serves inference. */
    boolean training() {
      return minBusBandwidthGBps > 0;
    }
  }

  private StarterSpec() {}

  /** The spec text for {@code gpu}, named {@code name} (validated by the reader, not here). */
  public static String text(Gpu gpu, String name) {
    Map<String, String> v = new LinkedHashMap<>();
    boolean training = gpu.training();
    v.put(
        "title",
        training
            ? "2 nodes of " + gpu.model + " GPUs for multi-node training"
            : "2 nodes of " + gpu.model + " GPUs for inference");
    v.put("gpu", gpu.name());
    v.put("model", gpu.model);
    v.put("name", name);
    v.put("instanceType", gpu.instanceType);
    v.put("hardware", gpu.hardware);
    v.put("count", "2");
    v.put("workload", training ? "training" : "inference");
    // Trailing comments line up with the template's, at column 34.
    v.put(
        "placement",
        training
            ? String.format("%-20s# one placement group: low latency between nodes", "cluster")
            : String.format("%-20s# inference nodes need no placement group", "none"));
    v.put(
        "fabric",
        training
            ? String.format("%-23s# Elastic Fabric Adapter on every network card", "efa")
            : String.format("%-23s# inference nodes run no NCCL across nodes", "tcp"));
    v.put("driverFloor", gpu.driverFloor);
    v.put(
        "kernelModules",
        gpu == Gpu.b200
            ? "  kernelModules: open            # Blackwell runs the open modules only"
            : null);
    v.put("replicas", training ? "1" : "4");
    v.put(
        "replicasNote",
        training
            ? "whole GPUs for training"
            : "the L4 has no MIG: 4 pods share each GPU by time-slicing");
    v.put(
        "ncclAllReduce",
        training
            ? "  ncclAllReduce: {minBusBandwidthGBps: "
                + gpu.minBusBandwidthGBps
                + ", maxBytes: 8G}   # "
                + gpu.bandwidthNote
            : "  # ncclAllReduce: {minBusBandwidthGBps: ...}   # no floor: inference runs no"
                + " multi-node NCCL");
    String text = template();
    for (Map.Entry<String, String> e : v.entrySet()) {
      String slot = "{{" + e.getKey() + "}}";
      text =
          e.getValue() == null ? text.replace(slot + "\n", "") : text.replace(slot, e.getValue());
    }
    if (text.contains("{{")) {
      throw new IllegalStateException("starter.yaml has an unfilled slot: " + text);
    }
    return text;
  }

  /** {@code h100-cluster} and so on: a valid name to start from. */
  public static String defaultName(Gpu gpu) {
    return gpu.name().toLowerCase(Locale.ROOT) + "-cluster";
  }

  private static String template() {
    try (InputStream in = StarterSpec.class.getResourceAsStream("starter.yaml")) {
      if (in == null) {
        throw new IllegalStateException("starter.yaml is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
