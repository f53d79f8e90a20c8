import QRCode from 'antd/es/qr-code';

/**
 * The QR code of an order's verification URL, drawn on a canvas, dark on white
 * whatever the theme so a phone reads it off the screen or a print. Its own chunk: the
 * profile page loads it lazily.
 */
export default function VerifyQrCode({ url, size = 168 }: { url: string; size?: number }) {
  return (
    <div data-testid="order-profile-qr" data-url={url}>
      <QRCode value={url} type="canvas" size={size} errorLevel="M" color="#000000" bgColor="#ffffff" />
    </div>
  );
}
