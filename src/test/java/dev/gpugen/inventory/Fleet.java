package dev.gpugen.inventory;

import dev.gpugen.inventory.Ec2StandIn.Instance;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Deterministic fleets of stand-in instances, for tests and the benchmark. */
public final class Fleet {
  public static final String CLUSTER = "demo";
  public static final String ENVIRONMENT = "prod";

  private static final String[] ZONES = {"us-east-1a", "us-east-1b", "us-east-1c"};

  private Fleet() {}

  /** The tags Terraform puts on a node of {@code cluster}/{@code environment}/{@code pool}. */
  public static Map<String, String> tags(
      String cluster, String environment, String pool, String name) {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put("Name", name);
    tags.put("ManagedBy", "gpugen");
    tags.put("gpugen:cluster", cluster);
    tags.put("gpugen:environment", environment);
    tags.put("gpugen:pool", pool);
    return tags;
  }

  /** The instance id of the {@code n}th instance of a generated fleet. */
  public static String id(int n) {
    return String.format("i-%017x", 0x1000000L + n);
  }

  /**
   * {@code n} running instances of {@code demo}/{@code prod}: pools {@code a100-train} (p4d) and
   * {@code h100-infer} (p5), three zones, every fourth one spot, unique Name tags, a few instances
   * per reservation.
   */
  public static List<Instance> cluster(int n) {
    List<Instance> fleet = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      boolean train = i % 3 != 2;
      String pool = train ? "a100-train" : "h100-infer";
      Instance instance =
          Instance.of(
                  id(i),
                  train ? "p4d.24xlarge" : "p5.48xlarge",
                  ZONES[i % ZONES.length],
                  tags(CLUSTER, ENVIRONMENT, pool, String.format("demo-%s-%05d", pool, i)))
              .withReservation(String.format("r-%017x", 0x2000000L + i / 4));
      fleet.add(i % 4 == 3 ? instance.withSpot() : instance);
    }
    return fleet;
  }

  /**
   * Instances that must never appear in {@code demo}/{@code prod}'s inventory: another cluster,
   * another environment, not managed by gpugen, stopped and terminated ones; ids after {@code
   * start}.
   */
  public static List<Instance> noise(int start, int n) {
    List<Instance> noise = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int k = start + i;
      String name = String.format("noise-%05d", k);
      Instance base;
      switch (i % 5) {
        case 0 ->
            base =
                Instance.of(
                    id(k),
                    "p4d.24xlarge",
                    ZONES[0],
                    tags("other", ENVIRONMENT, "a100-train", name));
        case 1 ->
            base =
                Instance.of(
                    id(k), "p4d.24xlarge", ZONES[1], tags(CLUSTER, "staging", "a100-train", name));
        case 2 -> {
          Map<String, String> t = tags(CLUSTER, ENVIRONMENT, "a100-train", name);
          t.put("ManagedBy", "someone-else");
          base = Instance.of(id(k), "p4d.24xlarge", ZONES[2], t);
        }
        case 3 ->
            base =
                Instance.of(
                        id(k),
                        "p5.48xlarge",
                        ZONES[0],
                        tags(CLUSTER, ENVIRONMENT, "h100-infer", name))
                    .withState("stopped");
        default ->
            base =
                Instance.of(
                        id(k),
                        "p5.48xlarge",
                        ZONES[1],
                        tags(CLUSTER, ENVIRONMENT, "h100-infer", name))
                    .withState("terminated");
      }
      noise.add(base);
    }
    return noise;
  }
}
