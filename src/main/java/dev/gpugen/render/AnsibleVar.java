package dev.gpugen.render;

import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PoolPlan;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * One Ansible group variable, defined once: its line in group_vars/all.yml (the cluster-wide value)
 * and its line in each group_vars/pool_NAME.yml (the pool's value, which Ansible applies over the
 * cluster's for that pool's hosts) are both produced from this record, as {@link TfVar} produces
 * variables.tf and terraform.tfvars.json. Adding a variable is adding one {@code AnsibleVar} in
 * {@link AnsibleVars}.
 *
 * @param name the variable, role-prefixed as ansible-lint's var-naming rule wants
 * @param cluster its value in all.yml for a plan; empty: not written there
 * @param pool its value in a pool's file; empty: not written there
 * @param override whether the pool value overrides a cluster value: a render that writes it for a
 *     pool must write it in all.yml too (else hosts outside that pool's group go without it)
 */
public record AnsibleVar(
    String name,
    Function<ClusterPlan, Optional<Value>> cluster,
    BiFunction<ClusterPlan, PoolPlan, Optional<Value>> pool,
    boolean override)
    implements AnsibleVarItem {

  private static final Pattern IDENTIFIER = Pattern.compile("[a-z][a-z0-9_]*");

  /**
   * A blank line and a banner comment before the next variable written in a file; written only if
   * one is, and where two headings meet without a variable between them, only the later one.
   *
   * @param cluster the banner's lines in all.yml (none: a blank line only); empty: no heading there
   * @param pool the same in the pool files
   */
  public record Heading(Optional<List<String>> cluster, Optional<List<String>> pool)
      implements AnsibleVarItem {}

  /**
   * A value and the comment lines written above it (without their "# ").
   *
   * @param data a String (written !unsafe: Ansible never evaluates it as a template), an Integer,
   *     Long or Boolean, null, {@link Raw} YAML, a flat Map of such scalars (keys double-quoted),
   *     or a {@link Tree} or List (block YAML, strings !unsafe)
   */
  public record Value(Object data, List<String> comment) {
    public Value {
      comment = List.copyOf(comment);
    }
  }

  /** YAML written as is: a number as the spec writes it, a Jinja expression, a folded scalar. */
  public record Raw(String yaml) {}

  /** A nested data tree, written by {@link YamlTree} (map keys plain where they are names). */
  public record Tree(Object data) {}

  public AnsibleVar {
    if (!IDENTIFIER.matcher(name).matches()) {
      throw new IllegalArgumentException("not an Ansible variable name: " + Escape.yaml(name));
    }
  }

  /** A variable of all.yml only. */
  static AnsibleVar cluster(String name, Function<ClusterPlan, Optional<Value>> value) {
    return new AnsibleVar(name, value, (p, pp) -> Optional.empty(), false);
  }

  /** A variable of the pool files only. */
  static AnsibleVar pool(String name, BiFunction<ClusterPlan, PoolPlan, Optional<Value>> value) {
    return new AnsibleVar(name, p -> Optional.empty(), value, false);
  }

  /** A cluster-wide value each pool's file overrides with its own. */
  static AnsibleVar override(
      String name,
      Function<ClusterPlan, Optional<Value>> cluster,
      BiFunction<ClusterPlan, PoolPlan, Optional<Value>> pool) {
    return new AnsibleVar(name, cluster, pool, true);
  }

  static Heading heading(String... lines) {
    return new Heading(Optional.of(List.of(lines)), Optional.of(List.of(lines)));
  }

  static Heading clusterHeading(String... lines) {
    return new Heading(Optional.of(List.of(lines)), Optional.empty());
  }

  static Heading poolHeading(String... lines) {
    return new Heading(Optional.empty(), Optional.of(List.of(lines)));
  }

  /** A value without a comment. */
  static Optional<Value> of(Object data) {
    return Optional.of(new Value(data, List.of()));
  }

  /** A value under a comment. */
  static Optional<Value> of(Object data, String... comment) {
    return Optional.of(new Value(data, List.of(comment)));
  }

  /** A Jinja expression Ansible evaluates, as a double-quoted YAML string. */
  static Raw jinja(String expression) {
    return new Raw(Escape.yaml(expression));
  }

  /** A number of the spec as YAML writes it: no ".0" on whole numbers. */
  static String number(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }

  /**
   * Refuses a list that defines a variable twice: the second definition would silently win in one
   * file and not in the other.
   */
  static List<AnsibleVarItem> checked(List<AnsibleVarItem> items) {
    Set<String> names = new HashSet<>();
    for (AnsibleVarItem i : items) {
      if (i instanceof AnsibleVar v && !names.add(v.name())) {
        throw new IllegalArgumentException("group variable " + v.name() + " is listed twice");
      }
    }
    return List.copyOf(items);
  }

  /** group_vars/all.yml's variables, each paragraph after a blank line (see {@link Heading}). */
  static String clusterFile(List<AnsibleVarItem> items, ClusterPlan plan) {
    return write(items, h -> h.cluster(), v -> v.cluster().apply(plan));
  }

  /**
   * Pool {@code pp}'s group_vars file. A variable the pool overrides must have a cluster-wide value
   * in the same render: the list's promise that a pool file only refines all.yml.
   */
  static String poolFile(List<AnsibleVarItem> items, ClusterPlan plan, PoolPlan pp) {
    for (AnsibleVarItem i : items) {
      if (i instanceof AnsibleVar v
          && v.override()
          && v.pool().apply(plan, pp).isPresent()
          && v.cluster().apply(plan).isEmpty()) {
        throw new IllegalStateException(
            "group variable "
                + v.name()
                + " is overridden for pool "
                + pp.pool().name()
                + " but has no cluster-wide value in all.yml");
      }
    }
    return write(items, h -> h.pool(), v -> v.pool().apply(plan, pp));
  }

  private static String write(
      List<AnsibleVarItem> items,
      Function<Heading, Optional<List<String>>> headingOf,
      Function<AnsibleVar, Optional<Value>> valueOf) {
    StringBuilder b = new StringBuilder();
    List<String> pending = null;
    for (AnsibleVarItem i : items) {
      if (i instanceof Heading h) {
        Optional<List<String>> banner = headingOf.apply(h);
        if (banner.isPresent()) {
          pending = banner.get();
        }
      } else if (i instanceof AnsibleVar v) {
        Optional<Value> value = valueOf.apply(v);
        if (value.isEmpty()) {
          continue;
        }
        if (pending != null) {
          b.append('\n');
          pending.forEach(l -> b.append("# ").append(l).append('\n'));
          pending = null;
        }
        value.get().comment().forEach(l -> b.append("# ").append(l).append('\n'));
        b.append(v.name()).append(':');
        data(b, value.get().data());
      }
    }
    // The template supplies the last line break.
    return b.isEmpty() ? "" : b.substring(0, b.length() - 1);
  }

  private static void data(StringBuilder b, Object d) {
    if (d instanceof Tree t) {
      d = t.data();
      if (d instanceof Map<?, ?> m && !m.isEmpty()) {
        b.append('\n').append(YamlTree.write(d, 2, true)).append('\n');
        return;
      }
    }
    if (d instanceof Map<?, ?> m && !m.isEmpty()) {
      b.append('\n');
      for (Map.Entry<?, ?> e : m.entrySet()) {
        b.append("  ").append(Escape.yaml(String.valueOf(e.getKey()))).append(": ");
        b.append(scalar(e.getValue())).append('\n');
      }
    } else if (d instanceof List<?> l && !l.isEmpty()) {
      b.append('\n').append(YamlTree.write(l, 2, true)).append('\n');
    } else {
      b.append(' ').append(scalar(d)).append('\n');
    }
  }

  private static String scalar(Object v) {
    if (v == null) {
      return "null";
    } else if (v instanceof Raw r) {
      return r.yaml();
    } else if (v instanceof Boolean || v instanceof Integer || v instanceof Long) {
      return String.valueOf(v);
    } else if (v instanceof String s) {
      return Escape.ansible(s);
    } else if (v instanceof Map<?, ?> m && m.isEmpty()) {
      return "{}";
    } else if (v instanceof List<?> l && l.isEmpty()) {
      return "[]";
    }
    throw new IllegalArgumentException("not a group variable's value: " + v.getClass().getName());
  }

  /** The names in {@code items}, in order (for tests and docs). */
  static List<String> names(List<AnsibleVarItem> items) {
    List<String> out = new ArrayList<>();
    items.forEach(
        i -> {
          if (i instanceof AnsibleVar v) {
            out.add(v.name());
          }
        });
    return out;
  }
}
