package dev.gpugen.inventory;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An Ansible inventory as the script protocol carries it: groups of host names, and every host's
 * variables (printed as {@code _meta.hostvars}).
 *
 * @param groups group name to its sorted host names
 * @param hostvars host name to its variables
 */
public record Inventory(
    SortedMap<String, List<String>> groups, SortedMap<String, SortedMap<String, String>> hostvars) {
  public Inventory {
    TreeMap<String, List<String>> g = new TreeMap<>();
    groups.forEach((name, hosts) -> g.put(name, List.copyOf(hosts)));
    groups = Collections.unmodifiableSortedMap(g);
    hostvars = frozen(hostvars);
  }

  /** {@code hostvars} as an immutable copy; the builder's arrays already are one. */
  private static SortedMap<String, SortedMap<String, String>> frozen(
      SortedMap<String, SortedMap<String, String>> hostvars) {
    if (hostvars instanceof SortedArrayMap
        && hostvars.values().stream().allMatch(v -> v instanceof SortedArrayMap)) {
      return hostvars;
    }
    TreeMap<String, SortedMap<String, String>> h = new TreeMap<>();
    hostvars.forEach(
        (host, vars) -> h.put(host, Collections.unmodifiableSortedMap(new TreeMap<>(vars))));
    return Collections.unmodifiableSortedMap(h);
  }

  /** The variables of {@code host}; empty for a host not in the inventory. */
  public Map<String, String> varsOf(String host) {
    return hostvars.getOrDefault(host, Collections.emptySortedMap());
  }
}
