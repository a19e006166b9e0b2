package dev.gpugen.plan;

import java.util.regex.Pattern;

/**
 * The one naming rule for Ansible groups, shared by the render (a pool's group, its group_vars
 * file) and the dynamic inventory (the groups it builds from EC2 tags), so both name a pool's hosts
 * alike.
 */
public final class GroupName {
  /** What Ansible warns about in a group name (its TRANSFORM_INVALID_GROUP_CHARS). */
  private static final Pattern NOT_GROUP_CHAR = Pattern.compile("[^A-Za-z0-9_]");

  private GroupName() {}

  /** {@code prefix + value} with every character Ansible would warn about replaced by {@code _}. */
  public static String of(String prefix, String value) {
    return prefix + NOT_GROUP_CHAR.matcher(value).replaceAll("_");
  }
}
