import { bunAdapter } from "../../src/runtime/adapter_bun.ts";
import { adapterContract } from "../helpers/adapter_contract.ts";

adapterContract("bun", bunAdapter);
