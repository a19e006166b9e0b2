package dev.gpugen.spec.yaml;

import dev.gpugen.spec.Provider;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The commented starter spec {@code gpugen init} writes: two nodes of a GPU's usual AWS instance
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
        true,
        "  ncclAllReduce: {minBusBandwidthGBps: 320, maxBytes: 8G}   # one 8x H100 node: ~370"
            + " GB/s busbw, ~480 with NVLS"),
    h200(
        "H200",
        "p5en.48xlarge",
        "8x H200 141 GB with NVSwitch, 16 EFA network cards",
        "550.90.07",
        true,
        null),
    b200(
        "B200",
        "p6-b200.48xlarge",
        "8x B200 179 GB with NVSwitch, 8 EFA network cards",
        "570.86.15",
        true,
        null),
    a100(
        "A100",
        "p4d.24xlarge",
        "8x A100 40 GB with NVSwitch, 4 EFA network cards",
        "450.80.02",
        true,
        "  ncclAllReduce: {minBusBandwidthGBps: 190, maxBytes: 8G}   # one 8x A100 node: ~230"
            + " GB/s busbw"),
    l4("L4", "g6.48xlarge", "8x L4 24 GB on PCIe, 1 EFA network card", "525.105.17", false, null);

    final String model;
    final String instanceType;
    final String hardware;
    final String driverFloor;
    final boolean training;
    final String ncclAllReduce;

    Gpu(
        String model,
        String instanceType,
        String hardware,
        String driverFloor,
        boolean training,
        String ncclAllReduce) {
      this.model = model;
      this.instanceType = instanceType;
      this.hardware = hardware;
      this.driverFloor = driverFloor;
      this.training = training;
      this.ncclAllReduce = ncclAllReduce;
    }
  }

  private StarterSpec() {}

  /** The spec text for {@code gpu}, named {@code name} (validated by the reader, not here). */
  public static String text(Gpu gpu, String name) {
    return text(gpu, name, 2);
  }

  /** The AWS text with {@code nodes} nodes in the title (the pool's count says the same). */
  private static String text(Gpu gpu, String name, int nodes) {
    Map<String, String> v = new LinkedHashMap<>();
    v.put(
        "title",
        nodes
            + (nodes == 1 ? " node of " : " nodes of ")
            + gpu.model
            + (gpu.training ? " GPUs for training" : " GPUs for inference"));
    v.put("gpu", gpu.name());
    v.put("model", gpu.model);
    v.put("name", name);
    v.put("instanceType", gpu.instanceType);
    v.put("hardware", gpu.hardware);
    v.put("workload", gpu.training ? "training" : "inference");
    v.put("driverFloor", gpu.driverFloor);
    v.put(
        "kernelModules",
        gpu == Gpu.b200
            ? "  kernelModules: open            # Blackwell runs the open modules only"
            : null);
    v.put("replicas", gpu.training ? "1" : "4");
    v.put(
        "replicasNote",
        gpu.training
            ? "whole GPUs for training"
            : "the L4 has no MIG: 4 pods share each GPU by time-slicing");
    // The threshold is for all_reduce_perf inside one node: only where the figure is published.
    v.put(
        "ncclAllReduce",
        gpu.ncclAllReduce != null
            ? gpu.ncclAllReduce
            : "  # ncclAllReduce: {minBusBandwidthGBps: N}   # fail a node below N GB/s: measure a"
                + " healthy node, take ~80%");
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

  /**
   * The GKE machine type a GPU starts from on gcp (its accelerator type and count come from the
   * compatibility table); for L4 the G2 size with eight, like the AWS starter's g6.48xlarge.
   */
  static String gcpMachine(Gpu gpu) {
    return switch (gpu) {
      case h100 -> "a3-highgpu-8g";
      case h200 -> "a3-ultragpu-8g";
      case b200 -> "a4-highgpu-8g";
      case a100 -> "a2-highgpu-8g";
      case l4 -> "g2-standard-96";
    };
  }

  /**
   * The starter for {@code provider}: the AWS text with its cloud, network and pool hardware
   * swapped for GKE's (project, zone, cluster, a machine type) or bare metal's (declared GPUs and
   * hosts). Everything else (software, kernel, NCCL, validation) is the same, except that a GKE
   * starter has no kernel block (gpugen configures no GKE node's kernel).
   */
  public static String text(Gpu gpu, String name, Provider provider) {
    // One A3 High node on GKE: more need GPUDirect-TCPX, which gpugen does not render.
    int nodes = provider == Provider.GCP && gpu == Gpu.h100 ? 1 : 2;
    String text = withKubernetes(text(gpu, name, nodes), provider);
    if (provider == Provider.AWS) {
      return text;
    }
    int cloud = text.indexOf("cloud:\n");
    int pools = text.indexOf("pools:\n");
    int software = text.indexOf("software:\n");
    String head = text.substring(0, cloud);
    String poolHead = "pools:\n  - name: " + gpu.name() + "\n";
    String labels = text.substring(text.indexOf("    labels:", pools), software);
    String middle;
    String pool;
    if (provider == Provider.GCP) {
      String machine = gcpMachine(gpu);
      middle =
          "cloud:\n"
              + "  provider: gcp\n"
              + "  project: my-project           # your GCP project id\n"
              + "  region: us-central1\n"
              + "  availabilityZone: us-central1-a   # all nodes in one zone; check that it offers "
              + machine
              + "\n"
              + "  gke:\n"
              + "    cluster: "
              + name
              + "\n"
              + "    create: true               # false adds the node pool to an existing zonal cluster\n"
              + "    gpuDriver: operator        # GKE's driver install off, the GPU Operator installs software.driver\n"
              + "    authorizedNetworks: [203.0.113.0/24]   # who may reach the API: your office, VPN or CI\n"
              + "network:\n"
              + "  placement: cluster             # compact placement for multi-node pools\n";
      pool =
          poolHead
              + "    instanceType: "
              + machine
              + "   # accelerator type and count from gpugen's table\n"
              + "    count: "
              + nodes
              + (nodes == 1
                  ? "                     # more A3 High nodes need GPUDirect-TCPX\n"
                  : "\n")
              + "    # autoscaling: {min: 1, max: 4}   # GKE cluster autoscaler bounds instead of count\n"
              + "    market: on-demand            # or spot\n";
    } else {
      middle =
          "cloud:\n"
              + "  provider: static               # servers you already have: no Terraform\n"
              + "network:\n"
              + "  fabric: "
              + (gpu.training ? "infiniband" : "tcp")
              + (gpu.training ? "             # the fabric between the servers\n" : "\n");
      pool =
          poolHead
              + "    gpu: {model: "
              + staticModel(gpu)
              + ", count: 8}   # what each host has"
              + (gpu.training ? "; an HGX baseboard: NVSwitch (Fabric Manager)" : "")
              + "\n"
              + "    hosts:                       # inventory name and the address Ansible uses\n"
              + "      - {name: gpu-01, address: 192.0.2.11}\n"
              + "      - {name: gpu-02, address: 192.0.2.12, vars: {ansible_user: ubuntu}}\n";
    }
    String rest = text.substring(software);
    if (provider == Provider.GCP) {
      // GKE's node image and the node pools' Terraform own the kernel: no play applies these.
      int kernel = rest.indexOf("kernel:\n");
      rest = rest.substring(0, kernel) + rest.substring(rest.indexOf("nccl:\n"));
      // GKE's containerd 2 needs the toolkit that reads RUNTIME_CONFIG_SOURCE (1.18.0+), which
      // GPU Operator v25.10.1 ships (gop-gke-toolkit-too-old).
      rest =
          rest.replace("containerToolkit: \"1.17.8\"", "containerToolkit: \"1.18.1\"")
              .replace("gpuOperator: {version: v25.3.0,", "gpuOperator: {version: v25.10.1,");
    }
    return head + middle + pool + labels + rest;
  }

  /**
   * The cluster the nodes join, before the software block: on AWS an EKS cluster the Terraform
   * creates and the nodes join at boot; on static hosts the user's own cluster, which the comment
   * says they must join first. GKE's cluster is cloud.gke's. The minor is one the default GPU
   * Operator release is validated on.
   */
  /**
   * The model name a static pool writes: one that names the board where the GPU also comes on PCIe
   * (h100-sxm: an HGX baseboard, so Fabric Manager), the plain name where it does not.
   */
  private static String staticModel(Gpu gpu) {
    return switch (gpu) {
      case h100, h200, a100 -> gpu.name() + "-sxm";
      default -> gpu.name();
    };
  }

  private static String withKubernetes(String text, Provider provider) {
    if (provider == Provider.GCP) {
      return text;
    }
    int software = text.indexOf("software:\n");
    String kubernetes =
        provider == Provider.AWS
            // The nodes join at first boot: a first cluster that works end to end.
            ? "kubernetes:\n"
                + "  distribution: eks              # Terraform creates the EKS control plane and the\n"
                + "                                 # nodes join it at first boot\n"
                + "  version: \"1.33\"\n"
                + "  endpointAccess: private        # API server inside the VPC: run the plays from there,\n"
                + "                                 # or public-and-private with publicCidrs: [YOUR/32]\n"
                + "  apiIngressCidrs: [203.0.113.0/24] # where plays 03-05 run from, as the VPC sees it\n"
                + "                                 # (VPN, peered network, a bastion): replace this\n"
                + "                                 # documentation range, or the API calls time out\n"
            : "kubernetes:\n"
                + "  distribution: existing         # YOUR cluster: join these hosts to it yourself first\n"
                + "                                 # (kubeadm: set distribution: kubeadm and\n"
                + "                                 # controlPlane.hosts to let gpugen create one); play 03\n"
                + "                                 # proves every node is Ready in the cluster your\n"
                + "                                 # kubeconfig names, play 05 that its GPUs are schedulable\n"
                + "  version: \"1.33\"\n";
    return text.substring(0, software) + kubernetes + text.substring(software);
  }

  /**
   * Why {@code name} cannot be the starter spec's metadata.name, in the reader's words, or empty.
   * It is checked before the spec text is built: a line feed or a quote in it would break the YAML
   * rather than fail the name.
   */
  public static Optional<String> nameProblem(String name) {
    Shape.Str shape = SpecShape.CLUSTER_NAME;
    if (name.length() > shape.maxLength()) {
      return Optional.of(
          "metadata.name is " + name.length() + " characters long; at most " + shape.maxLength());
    }
    if (!shape.pattern().matcher(name).matches()) {
      return Optional.of(
          "metadata.name is " + Quote.forMessage(name) + "; it must be " + shape.what());
    }
    return Optional.empty();
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
