package dev.gpugen.plan;

import dev.gpugen.spec.ClusterSpec;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A Kubernetes pod toleration, as chart values and manifests write it.
 *
 * @param key the taint key it matches
 * @param operator {@code Equal} (the taint's value must be {@code value}) or {@code Exists} (any
 *     value)
 * @param value the value for {@code Equal}; empty for {@code Exists}
 * @param effect the taint effect it matches (NoSchedule, PreferNoSchedule, NoExecute)
 */
public record Toleration(String key, String operator, String value, String effect) {
  public Toleration {
    Objects.requireNonNull(key);
    Objects.requireNonNull(operator);
    Objects.requireNonNull(value);
    Objects.requireNonNull(effect);
  }

  /** The toleration of one taint: its value where it has one, else any value of its key. */
  public static Toleration of(ClusterSpec.Taint t) {
    return t.value().isPresent()
        ? new Toleration(t.key(), "Equal", t.value().get(), t.effect())
        : new Toleration(t.key(), "Exists", "", t.effect());
  }

  /**
   * Whether it tolerates {@code taint}: the rule of k8s.io/api core/v1 Toleration.ToleratesTaint
   * (an empty key or effect matches any; Exists matches any value).
   */
  public boolean tolerates(ClusterSpec.Taint taint) {
    if (!effect.isEmpty() && !effect.equals(taint.effect())) {
      return false;
    }
    if (!key.isEmpty() && !key.equals(taint.key())) {
      return false;
    }
    return operator.equals("Exists") || value.equals(taint.value().orElse(""));
  }

  /** The YAML/JSON form: key, operator, value (for Equal only), effect, in that order. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("key", key);
    m.put("operator", operator);
    if (operator.equals("Equal")) {
      m.put("value", value);
    }
    m.put("effect", effect);
    return m;
  }

  // Written out, with the value the generated ones compute, for the reason given in
  // dev.gpugen.spec.Position.
  @Override
  public boolean equals(Object o) {
    return o instanceof Toleration t
        && key.equals(t.key)
        && operator.equals(t.operator)
        && value.equals(t.value)
        && effect.equals(t.effect);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * (31 * key.hashCode() + operator.hashCode()) + value.hashCode())
        + effect.hashCode();
  }
}
