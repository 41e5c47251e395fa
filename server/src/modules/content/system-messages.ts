import type { MessageParams, SystemMessageKind } from '@shared/content/model';
import type { Queryable } from '@infra/db';
import type { UserEvents } from '@server/platform/user-events';
import { insertMessage, insertMessages } from './messages.repo';

/** What to tell the user's sockets once the transaction that wrote the message has committed. */
export interface MessageAnnouncement {
  userId: number;
  id: string;
  title: string;
}

/** Minor units as a plain decimal ("10050" → "100.50"), exactly. */
export function plainAmount(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A tick's time of day, UTC ("14:02:07"), for the fallback text. */
function utcTime(ms: number | undefined): string {
  return ms === undefined ? '' : new Date(ms).toISOString().slice(11, 19);
}

/**
 * A zh-CN wording of each kind (the default language). The client words known kinds in the
 * reader's language itself; this text is for anything that does not (the socket event's title,
 * API readers that do not know a kind).
 */
export function fallbackText(
  kind: SystemMessageKind,
  params: MessageParams,
): { title: string; body: string } {
  const amount = plainAmount(params.amount ?? 0);
  const reason = params.reason ?? '';
  const { product = '', ref = '' } = params;
  switch (kind) {
    case 'deposit_approved':
      return { title: '充值已到账', body: `您的充值 ${amount} 已审核通过，已存入可用余额。` };
    case 'deposit_credited':
      return {
        title: 'USDT 充值已到账',
        body: `您的 USDT 充值 ${amount} 已经网络确认，已存入可用余额。`,
      };
    case 'deposit_rejected':
      return { title: '充值未通过', body: `您的充值 ${amount} 未通过审核。原因：${reason}` };
    case 'withdrawal_succeeded':
      return { title: '提现成功', body: `您的提现 ${amount} 已处理，请耐心等待到账。` };
    case 'withdrawal_failed':
      return {
        title: '提现失败',
        body: `您的提现 ${amount} 未能完成，金额已退回可用余额。原因：${reason}`,
      };
    case 'kyc_verified':
      return { title: '实名认证已通过', body: '您的实名认证已审核通过。' };
    case 'kyc_rejected':
      return {
        title: '实名认证未通过',
        body: `您的实名认证未通过审核。原因：${reason}。您可以重新提交。`,
      };
    case 'order_won':
      return {
        title: '订单结算：盈利',
        body: `您的 ${product} 订单 #${ref} 盈利，本金 ${amount}，返还 ${plainAmount(params.payout ?? 0)}。`,
      };
    case 'order_lost':
      return {
        title: '订单结算：亏损',
        body: `您的 ${product} 订单 #${ref} 亏损，本金 ${amount}。`,
      };
    case 'order_draw':
      return {
        title: '订单结算：平局',
        body: `您的 ${product} 订单 #${ref} 以开仓价结束，本金 ${amount} 已退回。`,
      };
    case 'order_void':
      return {
        title: '订单已作废',
        body: `您的 ${product} 订单 #${ref} 已作废（${reason}），本金 ${amount} 已退回。`,
      };
    case 'price_alert':
      return {
        title: '价格提醒',
        body: `${product} 价格${params.direction === 'below' ? '跌至' : '涨至'} ${params.price ?? ''}（${utcTime(params.at)} UTC，第 #${params.tick ?? ''} 个价格点），触发您的提醒 ${params.threshold ?? ''}。`,
      };
    default:
      return securityText(kind, params, amount);
  }
}

/** The security messages' zh-CN wording, each with the user's anti-phishing phrase if set. */
function securityText(
  kind: SystemMessageKind,
  params: MessageParams,
  amount: string,
): { title: string; body: string } {
  const phrase = params.phrase ? `\n防钓鱼码：${params.phrase}` : '';
  const notYou = '如非本人操作，请立即修改密码并在安全中心退出其他设备。';
  const texts: Partial<Record<SystemMessageKind, { title: string; body: string }>> = {
    security_sign_in: {
      title: '新设备登录',
      body: `您的账户在 ${params.device ?? ''} 上登录。${notYou}`,
    },
    security_password: {
      title: params.which === 'trade' ? '交易密码已修改' : '登录密码已修改',
      body: `您的${params.which === 'trade' ? '交易' : '登录'}密码已修改。${notYou}`,
    },
    security_two_factor_on: { title: '双重验证已开启', body: `您的账户已开启双重验证。${notYou}` },
    security_two_factor_off: { title: '双重验证已关闭', body: `您的账户已关闭双重验证。${notYou}` },
    security_two_factor_reset: {
      title: '双重验证重置申请',
      body: `客服已受理关闭您账户双重验证的申请，最早于 ${new Date(params.at ?? 0).toISOString().slice(0, 16).replace('T', ' ')} UTC 生效。如您仍持有验证器，请用验证码登录或在安全中心取消；如非本人申请，请立即联系客服。`,
    },
    security_withdrawal_account: {
      title: '新的提现账户',
      body: `您的账户绑定了新的提现账户，等待期结束后方可向其提现。${notYou}`,
    },
    security_withdrawal: { title: '提现申请', body: `您申请提现 ${amount}。${notYou}` },
  };
  const text = texts[kind] ?? { title: kind, body: '' };
  return { title: text.title, body: text.body + phrase };
}

/**
 * Writes a system message to one user inside the caller's transaction, so the message exists
 * exactly when the review it reports does. Pass the answer to `announceMessage` after commit.
 */
export async function writeSystemMessage(
  tx: Queryable,
  userId: number,
  kind: SystemMessageKind,
  params: MessageParams,
): Promise<MessageAnnouncement> {
  const row = await insertMessage(tx, { userId, kind, params });
  return { userId, id: String(row.id), title: fallbackText(kind, params).title };
}

/**
 * Writes the system messages of many users in one statement (settled orders: one per order,
 * written in the settling transaction). Pass the answers to `announceMessage` after commit.
 */
export async function writeSystemMessages(
  tx: Queryable,
  list: readonly { userId: number; kind: SystemMessageKind; params: MessageParams }[],
): Promise<MessageAnnouncement[]> {
  if (!list.length) return [];
  const ids = await insertMessages(tx, list);
  return list.map((m, i) => ({
    userId: m.userId,
    id: String(ids[i]),
    title: fallbackText(m.kind, m.params).title,
  }));
}

/** The `message` socket event for a committed message (fire-and-forget, like every user event). */
export function announceMessage(userEvents: UserEvents, a: MessageAnnouncement): void {
  userEvents.emit(a.userId, 'message', { id: a.id, title: a.title });
}
