/**
 * DynamicResources, reduced to what shows in scheduling messages: its PostFilter. Dynamic resource allocation
 * (ResourceClaims, DeviceClasses, ResourceSlices) is not modelled, so no pod has claims the plugin could free,
 * and its PostFilter answers, as upstream does for a pod without claims, "no new claims to deallocate". That
 * reason joins the PostFilter message of the FitError (before DefaultPreemption's "preemption: ..."), as real
 * FailedScheduling events show from 1.34, where DynamicResourceAllocation is GA and on by default. In 1.33 the
 * feature is off by default and the plugin is not in the default profile's effect: it implements no phase.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go
 */
import { isAtLeast } from '../../../version';
import type { PluginFactory } from '../../framework/plugin';
import { unschedulable } from '../../framework/status';
import type { Reason } from '../../framework/status';
import { PLUGIN_NAMES } from '../names';

/** The plugin's name. */
const DYNAMIC_RESOURCES = PLUGIN_NAMES.DynamicResources;

/** The PostFilter reason for a pod without resource claims. */
const REASON_NO_CLAIMS_TO_DEALLOCATE: Reason = {
  code: 'DynamicResources/NoClaimsToDeallocate',
  message: 'no new claims to deallocate',
};

/** Builds the DynamicResources plugin: PostFilter only, from 1.34. */
export const createDynamicResources: PluginFactory = (context) => {
  if (!isAtLeast(context.version, '1.34')) {
    return { name: DYNAMIC_RESOURCES };
  }
  return {
    name: DYNAMIC_RESOURCES,
    postFilter() {
      return {
        status: unschedulable(DYNAMIC_RESOURCES, REASON_NO_CLAIMS_TO_DEALLOCATE),
        nominatedNodeName: null,
        victims: [],
      };
    },
  };
};
